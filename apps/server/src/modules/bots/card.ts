import {
  BOT_LIMITS,
  CardDataSchema,
  cardJson,
  jsonTooDeep,
  MIN_CHARACTER_AGE,
  ReverieExtensionSchema,
} from '@reverie/shared';
import { AppError } from '../../lib/errors.js';
import type { BotRow, NewBotRow } from './bots.repository.js';
import { isPng, readTextChunks } from './card-png.js';

/** Character Card V2 `data` (and the V3 superset's common fields). */
export interface CardData {
  name: string;
  description: string;
  personality: string;
  scenario: string;
  first_mes: string;
  mes_example: string;
  creator_notes: string;
  system_prompt: string;
  post_history_instructions: string;
  alternate_greetings: string[];
  character_book?: Record<string, unknown>;
  tags: string[];
  creator: string;
  character_version: string;
  extensions: Record<string, unknown>;
  [key: string]: unknown;
}

export interface CardV2 {
  spec: 'chara_card_v2';
  spec_version: '2.0';
  data: CardData;
}

export interface CardV3 {
  spec: 'chara_card_v3';
  spec_version: '3.0';
  data: CardData & { group_only_greetings: string[]; [key: string]: unknown };
}

/** This server's own fields travel in `extensions.reverie`. */
interface ReverieExtension {
  age?: number;
  kind?: 'character' | 'persona';
  occupation?: string[];
  personality?: string[];
  voice?: string;
}

export class CardFormatError extends Error {}

/** A card whose fields break the limits or input rules: field → `validation.*` keys. */
export class CardFieldsError extends Error {
  constructor(readonly errors: Record<string, string[]>) {
    super('The card has invalid fields');
  }
}

const V2_KEYS = new Set([
  'name',
  'description',
  'personality',
  'scenario',
  'first_mes',
  'mes_example',
  'creator_notes',
  'system_prompt',
  'post_history_instructions',
  'alternate_greetings',
  'character_book',
  'tags',
  'creator',
  'character_version',
  'extensions',
]);

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const obj = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

/**
 * Reads a card file: PNG (`ccv3` preferred over `chara`, base64 JSON) or JSON text. The JSON
 * is bounded in size (413) and depth (400 `json_too_deep`) before it is parsed.
 */
export function parseCardFile(file: Buffer): unknown {
  let text: string;
  if (isPng(file)) {
    let chunks: Map<string, string>;
    try {
      chunks = readTextChunks(file);
    } catch {
      throw new CardFormatError('The PNG file is damaged');
    }
    const encoded = chunks.get('ccv3') ?? chunks.get('chara');
    if (!encoded) throw new CardFormatError('The PNG holds no character card');
    text = Buffer.from(encoded, 'base64').toString('utf8');
  } else {
    text = file.toString('utf8').replace(/^\uFEFF/, '');
  }
  if (Buffer.byteLength(text, 'utf8') > BOT_LIMITS.cardJsonBytes)
    throw new AppError('payload_too_large', { status: 413 });
  if (jsonTooDeep(text)) throw new AppError('json_too_deep', { status: 400 });
  try {
    return JSON.parse(text);
  } catch {
    throw new CardFormatError('The card is not valid JSON');
  }
}

/** Field errors of a zod result, keyed by the card field's path (`alternate_greetings.3`). */
function issuesToErrors(issues: { path: PropertyKey[]; message: string }[], prefix = ''): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const field = prefix + (issue.path.map(String).join('.') || 'card');
    (errors[field] ??= []).push(issue.message);
  }
  return errors;
}

/**
 * The bot fields of a V1, V2 or V3 card, under the create form's limits and the input rules
 * (CardDataSchema): a field over its limit or a single-line field with control characters
 * is a CardFieldsError, free text is cleaned. Unknown fields are kept for the round trip.
 */
export function cardToBotFields(card: unknown): Omit<NewBotRow, 'slug'> {
  const root = obj(card);
  if (!root) throw new CardFormatError('The card is not an object');
  const spec = str(root.spec);
  const isV2orV3 = spec === 'chara_card_v2' || spec === 'chara_card_v3';
  const data = isV2orV3 ? obj(root.data) : root;
  if (!data) throw new CardFormatError('The card has no data');
  const parsed = CardDataSchema.safeParse(data);
  if (!parsed.success) throw new CardFieldsError(issuesToErrors(parsed.error.issues));
  const fields = parsed.data;
  if (!fields.name) throw new CardFormatError('The card has no name');
  const reverieParsed = ReverieExtensionSchema.safeParse(obj(fields.extensions.reverie) ?? {});
  if (!reverieParsed.success)
    throw new CardFieldsError(issuesToErrors(reverieParsed.error.issues, 'extensions.reverie.'));
  const reverie = reverieParsed.data;
  const extra: Record<string, unknown> = {};
  if (isV2orV3) for (const [key, value] of Object.entries(data)) if (!V2_KEYS.has(key)) extra[key] = value;
  const cardExtra = cardJson(BOT_LIMITS.extraJsonBytes).safeParse(extra);
  if (!cardExtra.success) throw new CardFieldsError({ data: ['too_long'] });
  const age = reverie.age;
  return {
    name: fields.name,
    age: age !== undefined && age >= MIN_CHARACTER_AGE && age <= 200 ? age : MIN_CHARACTER_AGE,
    kind: reverie.kind,
    description: fields.description,
    personalityText: fields.personality,
    scenario: fields.scenario,
    greeting: fields.first_mes,
    exampleMessages: fields.mes_example,
    creatorNotes: fields.creator_notes,
    systemPrompt: fields.system_prompt,
    postHistoryInstructions: fields.post_history_instructions,
    alternateGreetings: fields.alternate_greetings,
    characterBook: fields.character_book,
    tags: fields.tags,
    creator: fields.creator,
    characterVersion: fields.character_version,
    occupation: reverie.occupation,
    personality: reverie.personality,
    voice: reverie.voice || undefined,
    extensions: fields.extensions,
    cardExtra: cardExtra.data,
  };
}

function cardData(bot: BotRow): CardData {
  const reverie: ReverieExtension = {
    age: bot.age,
    kind: bot.kind,
    occupation: bot.occupation,
    personality: bot.personality,
    voice: bot.voice,
  };
  return {
    name: bot.name,
    description: bot.description,
    personality: bot.personalityText || bot.personality.join(', '),
    scenario: bot.scenario,
    first_mes: bot.greeting,
    mes_example: bot.exampleMessages,
    creator_notes: bot.creatorNotes,
    system_prompt: bot.systemPrompt,
    post_history_instructions: bot.postHistoryInstructions,
    alternate_greetings: bot.alternateGreetings,
    ...(bot.characterBook ? { character_book: bot.characterBook } : {}),
    tags: bot.tags,
    creator: bot.creator,
    character_version: bot.characterVersion,
    extensions: { ...bot.extensions, reverie },
  };
}

export function botToCardV2(bot: BotRow): CardV2 {
  return { spec: 'chara_card_v2', spec_version: '2.0', data: cardData(bot) };
}

/** ISO 639-1 codes of the interface languages, as V3's `*_multilingual` maps key them. */
const ISO_639_1 = { en: 'en', ch: 'zh', es: 'es', de: 'de', ru: 'ru' } as const;

/**
 * V3's only multilingual field is `creator_notes_multilingual` (ISO 639-1 → the notes shown to
 * people, not the prompt): a character with translations (the official ones) carries its
 * description — what people read about her — in every language there. Its prompt fields
 * (description, first_mes, scenario) have no multilingual form and carry the reader's language.
 * `english` is the untranslated description (the row may already be localized).
 */
function multilingualNotes(bot: BotRow, english: string): Record<string, string> | null {
  const languages = Object.entries(bot.translations ?? {}).filter(([, t]) => t?.description);
  if (languages.length === 0) return null;
  const notes: Record<string, string> = { [ISO_639_1.en]: english };
  for (const [locale, text] of languages) notes[ISO_639_1[locale as keyof typeof ISO_639_1]] = text!.description!;
  return notes;
}

/** `english`: the character's own (untranslated) description when `bot` is a localized copy. */
export function botToCardV3(bot: BotRow, english: string = bot.description): CardV3 {
  const notes = multilingualNotes(bot, english);
  return {
    spec: 'chara_card_v3',
    spec_version: '3.0',
    data: {
      group_only_greetings: [],
      ...bot.cardExtra,
      ...cardData(bot),
      ...(notes ? { creator_notes_multilingual: notes } : {}),
    },
  };
}
