import type { ModerationProvider, ModerationVerdict } from './moderation.js';

/**
 * Terms that present someone as a minor, in en, zh, es, de and ru. Word boundaries are
 * applied to the alphabetic languages; Chinese terms match as substrings.
 */
const MINOR_TERMS: RegExp[] = [
  // English
  /\b(?:(?:is|am|a|as|still|are)\s+(?:a\s+)?minor(?!\s+(?:detail|issue|problem|role|injury|character|change|league|key|inconvenience))|child|children|kid|kids|minors|underage|under-age|under\s+age|preteen|pre-teen|prepubescent|toddler|infant|loli|lolita|shota|schoolgirl|schoolboy|school-age|elementary\s+school|middle\s+school(?:er)?|grade\s+school(?:er)?|jailbait|little\s+girl|little\s+boy)\b/iu,
  // Spanish
  /(?<![\p{L}])(?:niña|niño|niñas|niños|menor\s+de\s+edad|menores\s+de\s+edad|colegiala|colegial|preadolescente|escuela\s+primaria|infantil)(?![\p{L}])/iu,
  // German
  /(?<![\p{L}])(?:(?:ein|das|als|kleines|noch\s+ein)\s+kind|kinder|minderjährig(?:e|er|es|en)?|schulmädchen|schuljunge|grundschüler(?:in)?|grundschule|vorpubertär(?:e|er|es)?|kleinkind)(?![\p{L}])/iu,
  // Russian
  /(?<![\p{L}])(?:ребёнок|ребенок|дети|детский|несовершеннолетн\p{L}*|школьниц\p{L}*|школьник\p{L}*|малолетн\p{L}*|подрост\p{L}*)(?![\p{L}])/iu,
  // Chinese
  /(?:儿童|孩子|小孩|未成年|幼女|幼童|小学生|初中生|中学生|萝莉|正太|女童|男童)/u,
];

/** "15 years old", "15-year-old", "age 15", "15 лет", "15 años", "15 Jahre", "15岁". */
const AGE_PATTERNS: RegExp[] = [
  /\b(\d{1,2})\s*-?\s*(?:years?|yrs?)\s*-?\s*old\b/giu,
  /\b(\d{1,2})\s*(?:yo|y\/o)\b/giu,
  /\b(?:age|aged)\s*:?\s*(\d{1,2})\b/giu,
  /(?:мне|ей|ему|исполнилось|исполнится)\s+(\d{1,2})\s*(?:лет|год|года)(?![\p{L}])/giu,
  /(?<!\d)(\d{1,2})\s*(?:лет|год|года)\s+от\s+роду/giu,
  /(?:возраст|возрастом)\s*:?\s*(\d{1,2})(?!\d)/giu,
  /(?:tengo|tiene|tienes|de|con)\s+(\d{1,2})\s*años(?![\p{L}])/giu,
  /(?:edad)\s*:?\s*(\d{1,2})(?!\d)/giu,
  /(?<!\d)(\d{1,2})\s*(?:jahre?\s+alt|-?\s*jährig\p{L}*)(?![\p{L}])/giu,
  /(?:alter)\s*:?\s*(\d{1,2})(?!\d)/giu,
  /(?<!\d)(\d{1,2})\s*(?:岁|歲|周岁)/gu,
  /(?:年龄|年齡)\s*[:：]?\s*(\d{1,2})(?!\d)/gu,
];

/** Ages under 18 written as words: "fifteen years old", "quince años", "fünfzehn Jahre", "пятнадцать лет", "十五岁". */
const WORD_AGE_PATTERNS: RegExp[] = [
  /(?<!(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)[\s-]?)\b(?:five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen)\s*-?\s*(?:years?|yrs?)\s*-?\s*old\b/giu,
  /(?:tengo|tiene|tienes|tenía|tenia|de|con)\s+(?:cinco|seis|siete|ocho|nueve|diez|once|doce|trece|catorce|quince|diecis[eé]is|diecisiete)\s+años(?![\p{L}])/giu,
  /(?<![\p{L}])(?:fünf|fuenf|sechs|sieben|acht|neun|zehn|elf|zwölf|zwoelf|dreizehn|vierzehn|fünfzehn|fuenfzehn|sechzehn|siebzehn)\s*(?:jahre?\s+alt|-?\s*jährig\p{L}*)(?![\p{L}])/giu,
  /(?:мне|ей|ему|исполнилось|исполнится|было)\s+(?:пять|шесть|семь|восемь|девять|десять|одиннадцать|двенадцать|тринадцать|четырнадцать|пятнадцать|шестнадцать|семнадцать)\s+лет(?![\p{L}])/giu,
  /(?<![\p{L}])(?:пяти|шести|семи|восьми|девяти|десяти|одиннадцати|двенадцати|тринадцати|четырнадцати|пятнадцати|шестнадцати|семнадцати)летн\p{L}*/giu,
  /(?<![一二三四五六七八九十百两兩\d])(?:十[一二三四五六七]?|[五六七八九])(?:岁|歲|周岁)/gu,
];

/** Finds text that presents a character as under 18; answers the reason or null. */
export function detectMinor(text: string): string | null {
  const normalized = text.normalize('NFKC');
  for (const pattern of MINOR_TERMS) {
    const match = pattern.exec(normalized);
    if (match) return `minor term "${match[0]}"`;
  }
  for (const pattern of AGE_PATTERNS) {
    for (const match of matches(pattern, normalized)) {
      const age = Number(match[1]);
      if (Number.isFinite(age) && age < 18) return `age ${age}`;
    }
  }
  for (const pattern of WORD_AGE_PATTERNS) {
    pattern.lastIndex = 0;
    const match = pattern.exec(normalized);
    if (match) return `age "${match[0]}"`;
  }
  return null;
}

// ---------------------------------------------------------------------------------------
// Sexual content involving minors (chat messages and model replies)
// ---------------------------------------------------------------------------------------

/**
 * Minor terms that also name adults' everyday lives ("the kids are at school", "Kinder",
 * "孩子"): they count only next to a sexual term, in the same sentence. Every other minor term
 * and every age under 18 counts anywhere in the message.
 */
const WEAK_MINOR_TERM =
  /^(?:child|children|kid|kids|little\s+(?:girl|boy)|niña|niño|niñas|niños|infantil|(?:ein|das|als|kleines|noch\s+ein)\s+kind|kinder|ребёнок|ребенок|дети|детский|儿童|孩子|小孩|elementary\s+school|middle\s+school(?:er)?|grade\s+school(?:er)?|school-age|escuela\s+primaria|grundschule)$/iu;

/**
 * Everyday frames in which children are mentioned but take no part: "the kids are asleep",
 * "we have two kids", "she teaches at an elementary school". They are blanked out before the
 * weak terms are looked for, so "the kids are asleep, let's have sex" passes.
 */
const BYSTANDER_FRAMES: RegExp[] = [
  /\b(?:kids|children)\s+(?:are|were|'re)\s+(?:(?:finally|already|fast|sound|still)\s+)?(?:asleep|sleeping|in\s+bed|at\s+(?:school|home|daycare|camp|\w+'s|their|a|the)|away|out|gone|over\s+at|with\s+(?:their|my|your|his|her)|staying\s+with|on\s+vacation)\b/giu,
  /\b(?:kids|children|child|kid)\s+(?:came|come|comes|got|get|gets|went|go|goes|left|leave)\s+(?:home|back|to\s+(?:school|bed|sleep|camp))\b/giu,
  /\b(?:put|putting|puts|drop|dropped|dropping|pick|picked|picking|took|take|taking)\s+(?:up\s+|off\s+)?(?:the|our|my|your|his|her)\s+(?:kids|children|kid|child)\b/giu,
  /\b(?:have|had|has|having|with|raise|raising|raised|without|no)\s+(?:\d+|two|three|four|five|six|several|any|grown(?:-up)?|adult)\s+(?:kids|children)\b/giu,
  /\b(?:teach(?:es|er|ing)?|work(?:s|ed|ing)?|job)\s+(?:at|in|for)\s+(?:an?|the|our|my)\s+(?:elementary|middle|grade)\s+school\b/giu,
  /\b(?:teenage|teen)\s+years\b/giu,
  /\bi\s+kid\s+you\s+not\b/giu,
  // Endearments between adult lovers in Spanish.
  /(?<![\p{L}])mi\s+(?:niña|niño)(?![\p{L}])/giu,
  /(?<![\p{L}])(?:(?:los|mis|nuestros|tus|sus)\s+(?:niños|hijos|peques)\s+(?:ya\s+)?(?:están|estaban)\s+(?:dormidos|en\s+la\s+cama|en\s+el\s+colegio|en\s+la\s+escuela|fuera|con\s+\p{L}+)|(?:tenemos|tengo|tiene)\s+(?:\d+|dos|tres|cuatro)\s+(?:niños|hijos)|(?:maestr[oa]|profesora?|trabaja|trabajo)\s+(?:de|en)\s+(?:la\s+|una\s+)?escuela\s+primaria)(?![\p{L}])/giu,
  /(?<![\p{L}])(?:(?:die|unsere|meine|deine)\s+kinder\s+(?:schlafen|sind\s+(?:in\s+der\s+schule|im\s+bett|weg|bei\s+\p{L}+|aus\s+dem\s+haus))|(?:wir\s+haben|ich\s+habe|sie\s+hat|er\s+hat)\s+(?:\d+|zwei|drei|vier)\s+kinder|(?:lehrerin|lehrer|arbeitet|unterrichtet)\s+an\s+(?:einer|der)\s+grundschule)(?![\p{L}])/giu,
  /(?<![\p{L}])(?:дети\s+(?:уже\s+)?(?:спят|уснули|в\s+школе|у\s+бабушки|в\s+лагере)|у\s+(?:нас|меня|неё|нее|него)\s+(?:\d+|двое|трое|четверо)\s+детей)(?![\p{L}])/giu,
  /孩子们?(?:已经|都)?(?:睡了|睡着了|睡著了|上学了|上學了|在学校|在學校|去学校了|去學校了)/gu,
];

/** Further minor signals for chat: bare ages ("I'm 15", "she's 16"), teens, school grades. */
const CHAT_MINOR_TERMS: { pattern: RegExp; strong: boolean }[] = [
  {
    pattern:
      /\b(?:i'?m|i\s+am|she'?s|he'?s|she\s+is|he\s+is|you'?re|you\s+are|turned|just\s+turned)\s+(?:only\s+|just\s+)?(\d{1,2})(?![\d'"%/]|[.,:]\d|\s*(?:out\s+of|of|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?\s+(?:ago|into|in|of|older|younger|married)|times?|feet|foot|ft|inch(?:es)?|cm|centimet(?:er|re)s?|kg|kilos?|lbs?|pounds?|miles?|km|dollars|bucks|euros?|percent|o'?clock|am|pm|[ap]\.m\.|st|nd|rd|th)\b)/giu,
    strong: true,
  },
  {
    pattern:
      /\b(?:high[\s-]?schooler|junior\s+high|(?:sixth|seventh|eighth|ninth|tenth|[5-9]th|10th)\s+grader?|pubescent|barely\s+(?:pubescent|a\s+teen))\b/giu,
    strong: true,
  },
  {
    pattern: /\b(?:teen|teens|teenager|teenagers|teenage\s+(?:girls?|boys?|daughters?|sons?)|adolescent)\b/giu,
    strong: false,
  },
  { pattern: /\b(?:young|little|barely\s+legal)\s+teens?\b/giu, strong: true },
  { pattern: /(?<![\p{L}])(?:adolescentes?|chiquill[ao]s?|estudiante\s+de\s+secundaria)(?![\p{L}])/giu, strong: false },
  { pattern: /(?<![\p{L}])(?:teenager(?:in)?|jugendlich\p{L}*|schülerin|schüler)(?![\p{L}])/giu, strong: false },
  {
    pattern:
      /(?<![\p{L}])(?:старшеклассни\p{L}*|(?:перво|второ|третье|четвёрто|четверто|пяти|шести|семи|восьми|девяти|десяти|одиннадцати)классни\p{L}*)(?![\p{L}])/giu,
    strong: true,
  },
  {
    pattern: /(?<![\p{L}])(?:учениц[аеуы]|ученицей|школьн(?:ый|ая|ые|ого|ой|ую)\s+возраст\p{L}*)(?![\p{L}])/giu,
    strong: false,
  },
  {
    pattern: /(?<![\p{L}])(?:(?:ребён|ребен)(?:ок|ка|ку|ком|ке)|детей|детям|детьми|детях)(?![\p{L}])/giu,
    strong: false,
  },
  { pattern: /(?<![\p{L}])малолетк\p{L}*/giu, strong: true },
  { pattern: /(?:青少年|高中生|少年|女学生|女學生|男学生|男學生)/gu, strong: false },
];

/** Sexual terms in the five languages (explicit words; kisses and hugs are not among them). */
const SEXUAL_TERMS: RegExp[] = [
  /\b(?:sex|sexual|sexually|sexy|naked|nude|nudes|nudity|porn|porno|pornographic|fuck\w*|cum|cumming|orgasm\w*|horny|aroused|arousal|erotic\w*|erection|penis|cock|dick|pussy|vagina|clit\w*|boobs|tits|nipples?|blowjob|handjob|masturbat\w*|rape|raped|raping|molest\w*|grope\w*|groping|lewd|hentai|intercourse|penetrat\w*|make\s+love|making\s+love|made\s+love|have\s+sex|strip(?:s|ped)?\s+naked|suck(?:s|ed|ing)?\s+(?:my|his|your)\s+(?:cock|dick))\b/iu,
  /(?<![\p{L}])(?:sexo|sexual\p{L}*|sexy|desnud\p{L}*|porno\p{L}*|follar\p{L}*|follando|folla|orgasmo\p{L}*|cachond[oa]s?|pene|polla|vagina|coño|tetas|pezones|masturb\p{L}*|violar\p{L}*|violación|violada|violado|erótic\p{L}*|(?:hacer|haciendo|hacemos|hicimos|hace|hacen|hagamos|hacerle)\s+el\s+amor|mamada|manosear\p{L}*)(?![\p{L}])/iu,
  /(?<![\p{L}])(?:sex|sexuell\p{L}*|sexy|nackt\p{L}*|porno\p{L}*|ficken|fickt|fick|gefickt|vögeln|vögelt|orgasmus|erregt|penis|muschi|vagina|brüste|titten|nippel|masturb\p{L}*|vergewaltig\p{L}*|erotisch\p{L}*|liebe\s+machen|geschlechtsverkehr|befummel\p{L}*|begrapsch\p{L}*)(?![\p{L}])/iu,
  /(?<![\p{L}])(?:секс\p{L}*|сексуальн\p{L}*|гол(?:ый|ая|ые|ой|ого|ую|ыми|ышом|енькая|енький|енькие)|обнаж\p{L}*|порн\p{L}*|трах\p{L}*|выеб\p{L}*|ебать|ебал\p{L}*|оргазм\p{L}*|возбужд[её]нн?\p{L}*|пенис\p{L}*|вагин\p{L}*|сиськ\p{L}*|мастурб\p{L}*|изнасил\p{L}*|растл\p{L}*|развращ\p{L}*|эроти\p{L}*|минет\p{L}*|заняться\s+любовью|занимались\s+любовью|лапать|лапал\p{L}*)(?![\p{L}])/iu,
  /(?:性交|做爱|做愛|性爱|性愛|性行为|性行為|性关系|性關係|色情|裸体|裸體|裸照|全裸|脱光|脫光|自慰|手淫|阴茎|陰莖|阴道|陰道|阴蒂|陰蒂|奶子|强奸|強姦|強奸|猥亵|猥褻|性侵|肏|啪啪|性感|淫|口交|射精|勃起|色色)/u,
];

interface Span {
  start: number;
  end: number;
  text: string;
}

/** The global copy of each pattern, made once: a new RegExp per check made the minors guard 1.8–2.7× slower. */
const globalCopies = new WeakMap<RegExp, RegExp>();
function globally(pattern: RegExp): RegExp {
  let copy = globalCopies.get(pattern);
  if (!copy) {
    copy = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
    globalCopies.set(pattern, copy);
  }
  // matchAll and replace start from lastIndex 0 on a copy of it / reset it; set it anyway.
  copy.lastIndex = 0;
  return copy;
}

/**
 * Every match of the pattern in the text, read with `exec` on its global copy. Not `matchAll`:
 * it clones the pattern on every call, and a clone is compiled again whenever the garbage
 * collector has emptied V8's cache of compiled patterns — for these large Unicode patterns
 * 20–40 ms on a busy machine, on each send and each check of a streaming reply
 * (bench/README.md, "Chat at a model's pace").
 */
function matches(pattern: RegExp, text: string): RegExpExecArray[] {
  const copy = globally(pattern);
  const found: RegExpExecArray[] = [];
  for (let match = copy.exec(text); match; match = copy.exec(text)) {
    found.push(match);
    // An empty match moves on by one character (by code point, as matchAll does), never loops.
    if (match[0] === '') copy.lastIndex += copy.unicode && (text.codePointAt(copy.lastIndex) ?? 0) > 0xffff ? 2 : 1;
  }
  return found;
}

function spans(pattern: RegExp, text: string): Span[] {
  return matches(pattern, text).map((m) => ({ start: m.index, end: m.index + m[0].length, text: m[0] }));
}

/** Every place the text presents someone as under 18; `strong` ones need no proximity. */
function minorSignals(text: string): (Span & { strong: boolean })[] {
  const found: (Span & { strong: boolean })[] = [];
  for (const pattern of MINOR_TERMS) {
    for (const span of spans(pattern, text)) found.push({ ...span, strong: !WEAK_MINOR_TERM.test(span.text.trim()) });
  }
  for (const pattern of AGE_PATTERNS) {
    for (const match of matches(pattern, text)) {
      if (Number(match[1]) < 18)
        found.push({ start: match.index, end: match.index + match[0].length, text: match[0], strong: true });
    }
  }
  for (const pattern of WORD_AGE_PATTERNS)
    for (const span of spans(pattern, text)) found.push({ ...span, strong: true });
  for (const { pattern, strong } of CHAT_MINOR_TERMS) {
    for (const match of matches(pattern, text)) {
      if (match[1] !== undefined && !(Number(match[1]) < 18)) continue;
      found.push({ start: match.index, end: match.index + match[0].length, text: match[0], strong });
    }
  }
  return found;
}

/** Characters a weak minor term and a sexual term may be apart, within one sentence. */
const WEAK_TERM_DISTANCE = 60;

/**
 * Finds sexual content involving minors in a chat message or a model reply: a sexual term
 * together with an age under 18 or an unambiguous minor term anywhere in the text, or with
 * a weaker one ("kids", "Kinder", "孩子") in the same sentence nearby. Answers the reason or
 * null. Adult role-play ("she is 25") and everyday mentions of children pass.
 */
export function detectSexualContentWithMinor(text: string): string | null {
  const normalized = text.normalize('NFKC').replace(/[’‘`´]/g, "'");
  const sexual = SEXUAL_TERMS.flatMap((pattern) => spans(pattern, normalized));
  if (sexual.length === 0) return null;
  const withoutBystanders = BYSTANDER_FRAMES.reduce(
    (acc, frame) => acc.replace(globally(frame), (match) => ' '.repeat(match.length)),
    normalized,
  );
  for (const minor of minorSignals(withoutBystanders)) {
    if (minor.strong) return `minor "${minor.text}" with sexual term "${sexual[0]!.text}"`;
    for (const term of sexual) {
      const [from, to] = term.start < minor.start ? [term.end, minor.start] : [minor.end, term.start];
      const between = normalized.slice(from, Math.max(from, to));
      if (between.length <= WEAK_TERM_DISTANCE && !/[.!?。！？\n]/u.test(between)) {
        return `minor "${minor.text}" near sexual term "${term.text}"`;
      }
    }
  }
  return null;
}

/**
 * The built-in moderation: a multilingual rule-based minors detector for text. It cannot
 * judge pictures, so public custom characters still wait for an administrator's review.
 */
export class RulesModerationProvider implements ModerationProvider {
  readonly name = 'rules';
  readonly canAutoApprove = false;

  async checkText(text: string): Promise<ModerationVerdict> {
    const reason = detectMinor(text);
    return reason ? { flagged: true, reason } : { flagged: false };
  }

  async checkImage(): Promise<ModerationVerdict> {
    return { flagged: false };
  }
}
