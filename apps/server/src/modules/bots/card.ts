import { MIN_CHARACTER_AGE } from '@reverie/shared';
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
const strArray = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const obj = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

/** Reads a card file: PNG (`ccv3` preferred over `chara`, base64 JSON) or JSON text. */
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
  try {
    return JSON.parse(text);
  } catch {
    throw new CardFormatError('The card is not valid JSON');
  }
}

/** The bot fields of a V1, V2 or V3 card. Unknown fields are kept for the round trip. */
export function cardToBotFields(card: unknown): Omit<NewBotRow, 'slug'> {
  const root = obj(card);
  if (!root) throw new CardFormatError('The card is not an object');
  const spec = str(root.spec);
  const isV2orV3 = spec === 'chara_card_v2' || spec === 'chara_card_v3';
  const data = isV2orV3 ? obj(root.data) : root;
  if (!data) throw new CardFormatError('The card has no data');
  const name = str(data.name).trim();
  if (!name) throw new CardFormatError('The card has no name');
  const extensions = { ...(obj(data.extensions) ?? {}) };
  const reverie = (obj(extensions.reverie) ?? {}) as ReverieExtension;
  const cardExtra: Record<string, unknown> = {};
  if (isV2orV3) for (const [key, value] of Object.entries(data)) if (!V2_KEYS.has(key)) cardExtra[key] = value;
  const age = Number(reverie.age);
  return {
    name: name.slice(0, 80),
    age: Number.isInteger(age) && age >= MIN_CHARACTER_AGE && age <= 200 ? age : MIN_CHARACTER_AGE,
    kind: reverie.kind === 'persona' ? 'persona' : 'character',
    description: str(data.description),
    personalityText: str(data.personality),
    scenario: str(data.scenario),
    greeting: str(data.first_mes),
    exampleMessages: str(data.mes_example),
    creatorNotes: str(data.creator_notes),
    systemPrompt: str(data.system_prompt),
    postHistoryInstructions: str(data.post_history_instructions),
    alternateGreetings: strArray(data.alternate_greetings),
    characterBook: obj(data.character_book),
    tags: strArray(data.tags)
      .map((t) => t.trim().toLowerCase())
      .filter(Boolean)
      .slice(0, 20),
    creator: str(data.creator),
    characterVersion: str(data.character_version),
    occupation: strArray(reverie.occupation).slice(0, 3),
    personality: strArray(reverie.personality).slice(0, 3),
    voice: typeof reverie.voice === 'string' && reverie.voice ? reverie.voice : undefined,
    extensions,
    cardExtra,
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

export function botToCardV3(bot: BotRow): CardV3 {
  return {
    spec: 'chara_card_v3',
    spec_version: '3.0',
    data: { group_only_greetings: [], ...bot.cardExtra, ...cardData(bot) },
  };
}
