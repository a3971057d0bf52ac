/**
 * The constants of the contract's modules that the web app reads outside forms and API
 * calls, with no zod: the landing page imports them (the explore filters) without the
 * schema modules, which would bring zod (≈ 24 kB gzipped) into its first download.
 * `e2e/landing-bundle.e2e.ts` fails when zod comes back into the landing chunks,
 * `src/zod-free.test.ts` when this module (or what it imports) imports zod.
 */

/** The explore filters (spec §1): source (official/custom) and style (anime/realistic). */
export const BOT_FILTER_TAGS = ['official', 'custom', 'anime', 'realistic'] as const;
export type BotFilterTag = (typeof BOT_FILTER_TAGS)[number];

export const BOT_KINDS = ['character', 'persona'] as const;
export const BOT_VISIBILITIES = ['public', 'private'] as const;
export const BOT_REVIEW_STATES = ['pending', 'approved', 'rejected'] as const;

/** Options offered by the create form; free text is accepted too. */
export const OCCUPATION_OPTIONS = [
  'student',
  'artist',
  'doctor',
  'teacher',
  'musician',
  'athlete',
  'chef',
  'writer',
  'nurse',
  'engineer',
  'detective',
  'barista',
] as const;
export const PERSONALITY_OPTIONS = [
  'caring',
  'playful',
  'shy',
  'confident',
  'mysterious',
  'witty',
  'romantic',
  'adventurous',
  'sarcastic',
  'calm',
  'passionate',
  'nerdy',
] as const;

/**
 * Length and count limits of a character's fields: the create form, the API and imported
 * Character Cards obey the same ones (docs/characters.md).
 */
export const BOT_LIMITS = {
  name: 80,
  description: 4000,
  greeting: 2000,
  scenario: 4000,
  /** One picked occupation or personality option; the free-text alternative. */
  choice: 60,
  choicesText: 200,
  tag: 30,
  tags: 10,
  /** Card-only fields (import): personality summary, example dialogue, notes, prompts, creator, version. */
  personalityText: 2000,
  exampleMessages: 8000,
  creatorNotes: 4000,
  systemPrompt: 4000,
  postHistoryInstructions: 4000,
  creator: 100,
  characterVersion: 50,
  alternateGreetings: 20,
  lorebookEntries: 200,
  lorebookEntry: 4000,
  lorebookKeys: 50,
  lorebookKey: 100,
  /** Everything else a card carries (extensions, lorebook settings, unknown fields), as JSON characters. */
  extraJsonBytes: 64 * 1024,
  /** The card's JSON text as a whole, in bytes. */
  cardJsonBytes: 2 * 1024 * 1024,
} as const;

/**
 * Voices a character may have: espeak-ng voices with a variant (every TTS provider maps the
 * variant's sex onto its own voices; docs/voice.md). The console offers them (an administrator
 * may type a provider's own voice name instead); an author chooses among them.
 */
export const CHARACTER_VOICES = [
  { id: 'en-us+f3', sex: 'female' },
  { id: 'en-us+f2', sex: 'female' },
  { id: 'en-us+f4', sex: 'female' },
  { id: 'en-gb+f3', sex: 'female' },
  { id: 'en-us+m3', sex: 'male' },
  { id: 'en-us+m1', sex: 'male' },
  { id: 'en-us+m7', sex: 'male' },
  { id: 'en-gb+m3', sex: 'male' },
] as const;
