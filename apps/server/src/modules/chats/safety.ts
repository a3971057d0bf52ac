/**
 * Chat safety (PRODUCT.md §6, issue 5 item 6): the crisis protocol (a fixed, localised reply
 * with crisis resources when a message signals suicide or self-harm), the guard against
 * sexual content involving minors (the rule baseline of providers/moderation), and the AI
 * disclosure at the start of a session and every 3 hours of continuous chatting (California
 * SB 243, New York GBL Art. 47). Pure functions; the texts live in the locale files under
 * `chat_safety`.
 */
import { LOCALE_HTML_LANG, type Locale } from '@reverie/shared';
import { translate } from '../../lib/i18n.js';
import { detectSexualContentWithMinor } from '../../providers/moderation/rules-moderation.js';

// JavaScript's \b is ASCII-only: Latin and Cyrillic words get explicit letter boundaries.
const word = (body: string) => new RegExp(`(?<![\\p{L}\\p{N}])(?:${body})(?![\\p{L}\\p{N}])`, 'iu');
const start = (body: string) => new RegExp(`(?<![\\p{L}\\p{N}])(?:${body})`, 'iu');

/**
 * First-person phrasings of suicidal thoughts or self-harm in en, zh, es, de and ru, checked
 * whatever the user's interface language. Idioms ("killing it at work", "I'm dying to see
 * you", "me muero de risa", "das bringt mich um", "想死你了", "跳楼价") do not match.
 */
const CRISIS_PATTERNS: RegExp[] = [
  // English
  word(`(?:kill|killing|hang|hanging|shoot|shooting|off|offing|drown|drowning|poison|poisoning)\\s+myself`),
  word(`(?<![\\d.,]\\s?)kms`),
  word(`(?:end|ending|take|taking|end\\s+up\\s+taking)\\s+my\\s+(?:own\\s+)?life`),
  word(`(?:end\\s+it\\s+all|ending\\s+it\\s+all|end\\s+everything|end\\s+my\\s+existence)`),
  word(
    `suicid(?:e|al|ally)(?!\\s+(?:squad|mission|missions|doors?|bombers?|bombing|attacks?|run|runs|king|burn|drill|sprint|sprints)\\b)`,
  ),
  word(
    `(?:i|i'?m|i\\s+am|i\\s+really|i\\s+just|i\\s+honestly|i\\s+kinda|i\\s+kind\\s+of|i\\s+sometimes|i\\s+still|part\\s+of\\s+me)\\s+(?:\\w+\\s+)?(?:want|wanna|wish|need|plan(?:ning)?|ready|deserve)\\s+(?:to\\s+|i\\s+could\\s+|i\\s+was\\s+|i\\s+were\\s+|i'?d\\s+|i\\s+had\\s+)?(?:die|be\\s+dead|dead|never\\s+(?:been\\s+)?born|not\\s+exist|stop\\s+existing|disappear\\s+forever|not\\s+wake\\s+up)(?!\\s+(?:of|from|laughing|with\\s+laughter|in\\s+your\\s+arms|happy)\\b)`,
  ),
  word(
    `(?:i|i\\s+really|i\\s+just)\\s+(?:don'?t|do\\s+not|no\\s+longer)\\s+want\\s+to\\s+(?:live|be\\s+alive|exist|be\\s+here\\s+anymore|wake\\s+up|go\\s+on)(?!\\s+without)`,
  ),
  word(
    `(?:no|nothing\\s+left\\s+to|nothing\\s+to)\\s+(?:reason\\s+to\\s+)?live\\s+for|no\\s+reason\\s+to\\s+(?:live|go\\s+on|keep\\s+going)|(?:life|living)\\s+(?:is|isn'?t|feels)\\s+(?:not\\s+)?worth\\s+(?:living|it\\s+anymore)|(?:is|isn'?t)\\s+worth\\s+living`,
  ),
  word(`i'?d\\s+rather\\s+be\\s+dead`),
  word(`(?:better\\s+off\\s+(?:dead|without\\s+me)|everyone\\s+would\\s+be\\s+better\\s+off\\s+if\\s+i)`),
  word(`can'?t\\s+(?:go\\s+on|keep\\s+going)\\s+(?:anymore|any\\s+longer|living)`),
  word(`self[-\\s]?harm(?:ing|ed)?|self[-\\s]?injur(?:y|ies|ing)`),
  word(
    `(?:cut|cutting|burn|burning|hurt|hurting|harm|harming|starve|starving|punish|punishing)\\s+myself(?!\\s+(?:a|an|some|another|off|free|loose|short|in\\s+on)\\b)`,
  ),
  word(`(?:slit|slitting|cut|cutting)\\s+my\\s+wrists?`),
  word(
    `(?:overdose|overdosing|od|od'?ing)\\s+on\\s+(?:my\\s+|the\\s+|some\\s+|all\\s+(?:my\\s+|the\\s+)?)?(?:pills|meds|medication|medicine|sleeping\\s+pills|painkillers|tablets)`,
  ),
  word(
    `(?:swallow|take|taking|swallowing)\\s+(?:all|a\\s+bottle|a\\s+handful)\\s+of\\s+(?:my\\s+|the\\s+)?(?:pills|meds|tablets)`,
  ),
  word(`jump(?:ing)?\\s+(?:off|from)\\s+(?:a|the|this)\\s+(?:bridge|building|roof|rooftop|cliff|balcony)`),
  word(`(?:write|wrote|writing|left|leave)\\s+(?:a|my)\\s+suicide\\s+note`),

  // Spanish
  start(`suicid(?:arme|arse|arte|io|ios|a|as|ándome|andome|é|aré|are)(?![\\p{L}])(?<!misión\\s+suicida)`),
  word(
    `(?:quiero|quisiera|prefiero|deseo|necesito|tengo\\s+ganas\\s+de|ganas\\s+de)\\s+(?:morir(?:me)?|estar\\s+muert[oa]|desaparecer\\s+para\\s+siempre|dejar\\s+de\\s+existir)(?!\\s+(?:de|por)\\s+(?:risa|vergüenza|verguenza|ganas|amor|hambre|sueño))`,
  ),
  word(`me\\s+quiero\\s+morir(?!\\s+(?:de|por)\\s+(?:risa|vergüenza|verguenza|ganas|amor|hambre|sueño))`),
  word(
    `(?:voy\\s+a|quiero|pienso|podría|podria|debería|deberia|tengo\\s+ganas\\s+de|he\\s+pensado\\s+en|pienso\\s+en)\\s+(?:matarme|quitarme\\s+la\\s+vida|suicidarme|acabar\\s+con\\s+mi\\s+vida|terminar\\s+con\\s+mi\\s+vida|tirarme\\s+(?:de|por|desde)\\s+\\p{L}+)`,
  ),
  word(`me\\s+voy\\s+a\\s+matar|me\\s+quiero\\s+matar|me\\s+mataré|me\\s+matare`),
  word(
    `(?:quitarme|quitar\\s+mi)\\s+la\\s+vida|acabar\\s+con\\s+mi\\s+vida|terminar\\s+con\\s+mi\\s+vida|acabar\\s+con\\s+todo`,
  ),
  word(`no\\s+quiero\\s+(?:seguir\\s+)?(?:vivir|viviendo|existir|estar\\s+viv[oa]|despertar)(?!\\s+sin)`),
  word(
    `no\\s+(?:tengo|tiene)\\s+(?:razones|motivos|ganas|sentido)\\s+(?:para|de)\\s+(?:vivir|seguir)|(?:la\\s+)?vida\\s+no\\s+(?:tiene\\s+sentido|vale\\s+la\\s+pena)`,
  ),
  word(`(?:estarían|estarian)\\s+mejor\\s+sin\\s+mí|estarian\\s+mejor\\s+sin\\s+mi|mejor\\s+muert[oa]`),
  word(
    `(?:cortarme|me\\s+corto|me\\s+corté|me\\s+corte)\\s+(?:las\\s+)?(?:venas|muñecas|munecas|los\\s+brazos|las\\s+piernas)|autolesi\\p{L}+|(?:hacerme|me\\s+hago|me\\s+hice)\\s+daño\\s+(?:a\\s+mí\\s+mism[oa]|a\\s+propósito|a\\s+proposito)|lastimarme\\s+a\\s+propósito|me\\s+lastimo\\s+a\\s+propósito`,
  ),

  // German
  start(
    `suizid(?!\\p{L}*(?:attentat|attentäter|kommando|mission))|selbstmord(?!\\p{L}*(?:attentat|attentäter|kommando|mission))|selbsttötung`,
  ),
  word(`(?:mich|mir)\\s+(?:selbst\\s+)?(?:umbringen|töten|toeten|das\\s+leben\\s+nehmen)`),
  word(`ich\\s+(?:bring|bringe)\\s+mich\\s+(?:\\p{L}+\\s+)?um|ich\\s+(?:töte|toete)\\s+mich`),
  word(
    `(?:will|möchte|moechte|würde\\s+gern(?:e)?|wuerde\\s+gern(?:e)?|wünschte|wuenschte)\\s+(?:(?!nicht(?![\\p{L}]))\\p{L}+\\s+){0,2}(?:sterben|tot\\s+sein|nicht\\s+mehr\\s+(?:leben|da\\s+sein|aufwachen|existieren))(?!\\s+ohne)`,
  ),
  word(
    `(?:ich\\s+)?(?:will|möchte|moechte|kann)\\s+nicht\\s+mehr\\s+(?:leben|weiterleben|weiter\\s+leben)(?!\\s+ohne)`,
  ),
  word(
    `nicht\\s+mehr\\s+(?:leben|weiterleben|aufwachen)\\s+(?:will|möchte|moechte)|ich\\s+wäre\\s+lieber\\s+tot|wäre\\s+besser\\s+tot`,
  ),
  word(
    `(?:keinen|kein)\\s+(?:sinn|grund)\\s+(?:mehr\\s+)?(?:zu\\s+leben|weiterzuleben|im\\s+leben|mehr\\s+im\\s+leben)|das\\s+leben\\s+hat\\s+keinen\\s+sinn(?:\\s+mehr)?`,
  ),
  word(
    `(?:meinem|mein)\\s+leben\\s+(?:ein\\s+)?ende\\s+(?:setzen|machen|bereiten)|mit\\s+allem\\s+schluss\\s+machen|allem\\s+ein\\s+ende\\s+(?:setzen|machen)`,
  ),
  word(
    `(?:ich\\s+)?(?:ritze|ritz|schneide|verletze)\\s+mich(?:\\s+selbst)?|mich\\s+(?:selbst\\s+)?(?:ritzen|schneiden|verletzen)|selbstverletz\\p{L}*|lebensmüde|lebensmuede`,
  ),
  word(`ohne\\s+mich\\s+(?:wären|waeren)\\s+(?:alle|die\\s+anderen)\\s+besser\\s+dran`),

  // Russian
  start(`суицид|самоубийств|самоуби(?:йц|ться)|самоповрежд|селфхарм`),
  word(
    `(?:покончить|покончу|покончила?|покончим)\\s+с\\s+собой|(?:убить|убью|убила?|убиваю)\\s+себя|(?:наложить|наложу)\\s+на\\s+себя\\s+руки`,
  ),
  word(
    `(?<!не\\s+)(?:хочу|хочется|хотела?\\s+бы|мечтаю|лучше\\s+бы\\s+мне)\\s+(?:просто\\s+)?(?:умереть|сдохнуть|не\\s+просыпаться|исчезнуть\\s+навсегда|не\\s+существовать)(?!\\s+(?:со\\s+смеху|от\\s+смеха|от\\s+стыда))`,
  ),
  word(
    `не\\s+(?:хочу|хочется|могу)\\s+(?:больше\\s+)?жить(?!\\s+без)|жить\\s+(?:больше\\s+)?не\\s+(?:хочу|хочется)|незачем\\s+жить|нет\\s+смысла\\s+(?:жить|в\\s+жизни)|не\\s+вижу\\s+смысла\\s+(?:жить|в\\s+жизни)`,
  ),
  word(`лучше\\s+бы\\s+я\\s+(?:умерла?|не\\s+родил(?:ась|ся)|сдохла?)|всем\\s+будет\\s+лучше\\s+без\\s+меня`),
  word(
    `(?:порезать|вскрыть|режу|резать|вскрою|порежу)\\s+(?:себе\\s+)?вены|(?:режу|резать|порезать|порежу|ранить|раню|причиняю|причинить)\\s+(?:себя|себе\\s+(?:боль|вред))`,
  ),
  word(
    `повешусь|повеситься|выпилиться|выпилюсь|выйти\\s+в\\s+окно|выйду\\s+в\\s+окно|прыгну\\s+с\\s+(?:крыши|моста)|наглотаться\\s+таблеток|наглотаюсь\\s+таблеток`,
  ),

  // Chinese (simplified and traditional)
  /(?:自杀|自殺)(?!小队|小隊|式攻击|式攻擊|式袭击|炸弹|炸彈)/u,
  /(?:轻生|輕生|自残|自殘|自伤|自傷|割腕|寻死|尋死|厌世|厭世|不想活|活不下去|不想再活|活着没意思|活著沒意思|活着没有意义|活著沒有意義|活着有什么意思|活著有什麼意思)/u,
  /(?<!不)想死(?!你|我|他|她|您|它|咱|人)/u,
  /(?:结束|結束|了结|了結|了断|了斷)(?:我的|自己的|自己)?(?:生命|性命|自己)/u,
  /(?:想|要|打算|准备|準備|我会|我會)[^。！？.!?]{0,4}(?:跳楼|跳樓|上吊|割腕|烧炭|燒炭|吞(?:安眠药|安眠藥|药|藥)|吃(?:一整瓶|一瓶|一把)(?:安眠药|安眠藥|药|藥))/u,
  /(?:伤害|傷害|弄伤|弄傷|划伤|劃傷)自己/u,
  /(?:没有我|沒有我)[^。！？.!?]{0,6}(?:会更好|會更好)/u,
];

/** True when a message signals suicidal thoughts or self-harm (any of the five languages). */
export function signalsCrisis(text: string): boolean {
  const normalized = text.normalize('NFKC').replace(/[’‘`´]/g, "'");
  return CRISIS_PATTERNS.some((pattern) => pattern.test(normalized));
}

/** The platform's fixed crisis-resources reply, in the user's language (never the model's). */
export function crisisReply(locale: Locale): string {
  return translate(locale, 'chat_safety.crisis');
}

/**
 * True when a message or a model reply is sexual content involving minors (the multilingual
 * rule baseline of providers/moderation; a configured moderation provider runs besides it).
 */
export function violatesMinorsPolicy(text: string): boolean {
  return detectSexualContentWithMinor(text) !== null;
}

/**
 * The minors guard on a reply as it streams, linear in the reply's length: every `every` new
 * characters it checks only the new text plus the `overlap` before it (a term split between
 * two pieces, a minor named just before a sexual term), never the whole reply again. Pairs
 * further apart than the overlap are caught by the check of the complete reply at the end,
 * which decides what is saved and shown.
 */
export class StreamingMinorsGuard {
  private checkedTo = 0;

  constructor(
    private readonly every = 64,
    private readonly overlap = 192,
    private readonly check: (text: string) => boolean = violatesMinorsPolicy,
  ) {}

  /** True when the text so far must be refused (checks only when enough new text came). */
  violates(text: string): boolean {
    if (text.length - this.checkedTo < this.every) return false;
    const from = Math.max(0, this.checkedTo - this.overlap);
    this.checkedTo = text.length;
    return this.check(text.slice(from));
  }
}

/** What the chat shows instead of a refused message or reply. */
export function refusalText(locale: Locale): string {
  return translate(locale, 'chat_safety.refusal');
}

/** The AI disclosure shown in the chat: "{name} is an AI character, not a real person …". */
export function disclosureText(locale: Locale, characterName: string): string {
  return translate(locale, 'chat_safety.disclosure', { name: characterName });
}

/** The AI disclosure of a group scene: every character named, joined as the language joins a list. */
export function groupDisclosureText(locale: Locale, characterNames: string[]): string {
  if (characterNames.length === 1) return disclosureText(locale, characterNames[0]!);
  const names = new Intl.ListFormat(LOCALE_HTML_LANG[locale], { type: 'conjunction' }).format(characterNames);
  return translate(locale, 'chat_safety.disclosure_group', { names });
}

/** The disclosure repeats after this much continuous chatting (NY GBL Art. 47: every 3 hours). */
export const DISCLOSURE_INTERVAL_MS = 3 * 60 * 60 * 1000;
/** A pause this long ends a session; the next message starts a new one. */
export const SESSION_GAP_MS = 30 * 60 * 1000;

/**
 * True when the chat should show the AI disclosure now: at the start of a session (none shown
 * yet, or a pause of at least 30 minutes since the last activity or disclosure) and after
 * 3 hours of continuous chatting since the last disclosure.
 */
export function needsDisclosure(lastDisclosedAt: Date | null, lastActivityAt: Date | null, now: Date): boolean {
  if (!lastDisclosedAt) return true;
  const lastSeen = Math.max(lastDisclosedAt.getTime(), lastActivityAt?.getTime() ?? 0);
  if (now.getTime() - lastSeen >= SESSION_GAP_MS) return true;
  return now.getTime() - lastDisclosedAt.getTime() >= DISCLOSURE_INTERVAL_MS;
}
