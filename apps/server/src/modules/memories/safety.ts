/**
 * The content policy applied to memories (PRODUCT.md §10, docs/memory.md "Safety"): nothing
 * about minors, nothing intimate about third parties. Checked on every memory the model
 * proposes (add or correction); a memory the user writes by hand is checked the same way.
 */
import { detectMinor, detectSexualContentWithMinor } from '../../providers/moderation/rules-moderation.js';
import type { ModerationProvider } from '../../providers/moderation/index.js';

/** Intimate matters (sex, body, health, affairs, pregnancy) in the five languages. */
const INTIMATE = [
  /\b(?:sex\w*|intimate\w*|naked|nude\w*|slept with|sleeps with|affair|cheat\w* on|pregnan\w*|std|hiv|aids|erotic\w*|orgasm\w*|virgin\w*|porn\w*|genital\w*|abortion\w*)\b/iu,
  /\b(?:sexo|sexual\w*|íntim\w*|intim\w*|desnud\w*|embarazad\w*|amante|infiel|aborto|virgen|porno\w*)\b/iu,
  /\b(?:sex\w*|intim\w*|nackt\w*|schwanger\w*|affäre|fremdgeh\w*|jungfrau|porno\w*|abtreibung)\b/iu,
  /(?:^|[^\p{L}])(?:секс\p{L}*|интим\p{L}*|голы\p{L}*|гола\p{L}*|обнажён\p{L}*|беремен\p{L}*|измен\p{L}*|любовни\p{L}*|аборт\p{L}*|порно\p{L}*|девственн\p{L}*)/iu,
  /(?:性爱|性愛|做爱|做愛|上床|裸体|裸體|私密|怀孕|懷孕|出轨|出軌|情人|堕胎|墮胎|色情|处女|處女|性病|性生活)/u,
];

/**
 * A relative's age said the Russian way, in the dative ("Моей дочери 12 лет", "сыну 9 лет",
 * "младшему брату 15 лет"): the shared minors rules read the age only after a pronoun
 * ("мне/ей/ему 15 лет") so that a chat's "работаю 10 лет" is no minor, but a memory about a
 * relative under 18 is exactly what must not be kept. Answers the age, or null.
 */
const RU_RELATIVE_AGE =
  /(?<![\p{L}])(?:дочер\p{L}*|доч\p{L}*|сын\p{L}*|сестр\p{L}*|сестрёнк\p{L}*|сестренк\p{L}*|брат\p{L}*|братик\p{L}*|племянни\p{L}*|внук\p{L}*|внучк\p{L}*|ребёнк\p{L}*|ребенк\p{L}*|малыш\p{L}*)\s+(?:уже\s+|только\s+|всего\s+|почти\s+)?(\d{1,2})\s*(?:лет|год|года)(?![\p{L}])(?!\s+назад)/giu;

function russianRelativeMinor(text: string): boolean {
  for (const match of text.normalize('NFKC').matchAll(RU_RELATIVE_AGE)) if (Number(match[1]) < 18) return true;
  return false;
}

export type MemorySubject = 'user' | 'character' | 'relationship' | 'third_party';

/** Why a memory may not be kept (for the log: never its text), or null. */
export function memoryRefusal(text: string, subject: MemorySubject): string | null {
  if (detectSexualContentWithMinor(text)) return 'sexual_minors';
  if (detectMinor(text) || russianRelativeMinor(text)) return 'minor';
  if (subject === 'third_party' && INTIMATE.some((pattern) => pattern.test(text))) return 'third_party_intimate';
  return null;
}

/** The rules, then the configured moderation provider (an endpoint that fails lets the rules decide). */
export async function checkMemory(
  text: string,
  subject: MemorySubject,
  moderation: Pick<ModerationProvider, 'checkText' | 'name'> | null,
): Promise<string | null> {
  const refusal = memoryRefusal(text, subject);
  if (refusal) return refusal;
  if (moderation && moderation.name !== 'rules') {
    const verdict = await moderation.checkText(text).catch(() => null);
    if (verdict?.flagged && verdict.categories?.some((c) => c.includes('minors'))) return 'moderation_minors';
  }
  return null;
}
