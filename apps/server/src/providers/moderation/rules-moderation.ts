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

/** Finds text that presents a character as under 18; answers the reason or null. */
export function detectMinor(text: string): string | null {
  const normalized = text.normalize('NFKC');
  for (const pattern of MINOR_TERMS) {
    const match = pattern.exec(normalized);
    if (match) return `minor term "${match[0]}"`;
  }
  for (const pattern of AGE_PATTERNS) {
    pattern.lastIndex = 0;
    for (const match of normalized.matchAll(pattern)) {
      const age = Number(match[1]);
      if (Number.isFinite(age) && age < 18) return `age ${age}`;
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
