/**
 * A voice that fits a character (docs/voice.md): a woman speaks with a woman's voice and a
 * man with a man's, in voice messages and in calls. Characters have no sex field: it is
 * read from how their own texts speak of them — pronouns and words such as "woman" or
 * "brother" in English, German, Spanish, Russian and Chinese — the first one in the
 * greeting's first action (`*He waves.*`) counting most.
 */

import type { Database } from '../../db/client.js';
import { listAuthoredCharactersWithVoice, setBotVoice } from './bots.repository.js';

export type CharacterSex = 'female' | 'male';

/** espeak-ng voices (the stored form; every provider maps the variant's sex onto its own voices). */
export const FEMALE_VOICE = 'en-us+f3';
export const MALE_VOICE = 'en-us+m3';

const FEMALE_WORDS = [
  // English
  'she',
  'her',
  'hers',
  'herself',
  'woman',
  'girl',
  'lady',
  'wife',
  'girlfriend',
  'mother',
  'daughter',
  'sister',
  'queen',
  'princess',
  'actress',
  'waitress',
  'goddess',
  'heroine',
  'mrs',
  // German (lower-case `sie` only: the capitalised one is the polite "you")
  'frau',
  'mädchen',
  'ihre',
  'ihrer',
  'ihrem',
  'ihren',
  'schwester',
  'tochter',
  'mutter',
  'freundin',
  // Spanish
  'ella',
  'mujer',
  'chica',
  'señora',
  'esposa',
  'novia',
  'hermana',
  'hija',
  'madre',
  'reina',
  // Russian
  'она',
  'её',
  'ее',
  'ей',
  'неё',
  'нее',
  'женщина',
  'девушка',
  'жена',
  'сестра',
  'дочь',
  'мать',
];
const MALE_WORDS = [
  'he',
  'him',
  'his',
  'himself',
  'man',
  'boy',
  'guy',
  'gentleman',
  'husband',
  'boyfriend',
  'father',
  'brother',
  'king',
  'prince',
  'actor',
  'waiter',
  'hero',
  'mr',
  'er',
  'ihn',
  'ihm',
  'seine',
  'seiner',
  'seinem',
  'seinen',
  'mann',
  'junge',
  'bruder',
  'sohn',
  'vater',
  'freund',
  'él',
  'hombre',
  'chico',
  'señor',
  'esposo',
  'novio',
  'hermano',
  'hijo',
  'padre',
  'rey',
  'он',
  'его',
  'ему',
  'него',
  'нему',
  'мужчина',
  'парень',
  'муж',
  'брат',
  'сын',
  'отец',
];
const FEMALE = new Set(FEMALE_WORDS);
const MALE = new Set(MALE_WORDS);

export interface CharacterTexts {
  description?: string | null;
  greeting?: string | null;
  scenario?: string | null;
  personality?: string | null;
}

/** Adds the female and male words of a text to the counts. */
function tally(text: string, into: { female: number; male: number }): void {
  for (const word of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
    if (FEMALE.has(word)) into.female += 1;
    else if (MALE.has(word)) into.male += 1;
  }
  // The German lower-case `sie` (she/they); the capitalised one is mostly the polite "you".
  into.female += text.match(/(?<!\p{L})sie(?!\p{L})/gu)?.length ?? 0;
  // Chinese writes he and she as different characters.
  into.female += text.match(/她/g)?.length ?? 0;
  into.male += text.match(/他/g)?.length ?? 0;
}

/** The sex of the first gendered word in the greeting's first action (`*She smiles.*`): the character's own. */
function firstAction(greeting: string): CharacterSex | null {
  const action = /\*([^*]+)\*/.exec(greeting)?.[1] ?? '';
  for (const word of action.toLowerCase().match(/\p{L}+/gu) ?? []) {
    if (FEMALE.has(word) || word === 'sie' || word.includes('她')) return 'female';
    if (MALE.has(word) || word.includes('他')) return 'male';
  }
  return null;
}

/** The character's sex as its texts tell it, or null when they do not say. */
export function characterSex(texts: CharacterTexts): CharacterSex | null {
  const counts = { female: 0, male: 0 };
  for (const text of [texts.greeting, texts.description, texts.personality, texts.scenario]) tally(text ?? '', counts);
  // Roleplay narration names the character first: that word outweighs a few mentions of others.
  const first = firstAction(texts.greeting ?? '');
  if (first) counts[first] += 5;
  if (counts.female === counts.male) return null;
  return counts.female > counts.male ? 'female' : 'male';
}

/** The stored voice for a new character: a man's voice for a man, else a woman's (the default). */
export function voiceForCharacter(texts: CharacterTexts): string {
  return characterSex(texts) === 'male' ? MALE_VOICE : FEMALE_VOICE;
}

/**
 * Gives every user-made character whose stored voice is a woman's but whose texts speak of a
 * man a man's voice (characters made before voices were chosen by sex all got `FEMALE_VOICE`;
 * `npm run voices:fit`, docs/voice.md). Answers how many changed; running it again changes none.
 */
export async function fitCharacterVoices(db: Database, pageSize = 500): Promise<{ checked: number; changed: number }> {
  let checked = 0;
  let changed = 0;
  let after: string | null = null;
  for (;;) {
    const page = await listAuthoredCharactersWithVoice(db, FEMALE_VOICE, after, pageSize);
    if (page.length === 0) return { checked, changed };
    for (const bot of page) {
      checked += 1;
      const voice = voiceForCharacter({ ...bot, personality: bot.personalityText });
      if (voice === FEMALE_VOICE) continue;
      await setBotVoice(db, bot.id, voice);
      changed += 1;
    }
    after = page.at(-1)!.id;
  }
}
