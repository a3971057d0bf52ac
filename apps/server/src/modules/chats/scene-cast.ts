/**
 * A group scene as a reply needs it (issue 32, docs/groups.md): its characters and people,
 * who speaks next (`turns.ts`, the model asked only when the rule cannot tell), and the
 * generation context of the speaking character — her card, her memories (`chat.botId` is hers
 * for the reply), the scene's setting and the persona of the person answered.
 */
import type { LlmProvider as Llm } from '../../providers/llm/llm.js';
import type { MediaUrls } from '../../lib/media-urls.js';
import type { ServiceLog } from '../../lib/logger.js';
import type { Database } from '../../db/client.js';
import { presentBot } from '../bots/index.js';
import type { ChatRow } from './chats.repository.js';
import type { PromptRow } from './chat-context.repository.js';
import type { GenerationContext } from './runner.js';
import {
  sceneCharacters,
  scenePeople,
  type CharacterLinkRow,
  type SceneBotRow,
  type ScenePersonRow,
  type StoredSpeaker,
} from './scenes.repository.js';
import { modelChoicePrompt, readModelChoice, selectSpeaker, type TurnCharacter, type TurnMessage } from './turns.js';

export interface SceneCast {
  chat: ChatRow;
  characters: Array<{ link: CharacterLinkRow; bot: SceneBotRow }>;
  people: ScenePersonRow[];
}

/** The scene's characters and people (two reads at once). */
export async function loadCast(db: Database, chat: ChatRow): Promise<SceneCast> {
  const [characters, people] = await Promise.all([sceneCharacters(db, chat.id), scenePeople(db, chat)]);
  return { chat, characters, people };
}

/** More than one person: messages carry their person, crisis replies are private. */
export const isMultiplayer = (cast: SceneCast) => cast.people.length > 1;

export const personName = (person: ScenePersonRow) => person.personaName ?? person.userName;

export function characterSpeaker(bot: SceneBotRow, urls: MediaUrls, viewerId: string): StoredSpeaker {
  const shown = presentBot(bot, urls, viewerId);
  return { kind: 'character', bot_id: bot.id, slug: bot.slug, name: bot.name, avatar: shown.avatar_url };
}

export function personSpeaker(person: ScenePersonRow): StoredSpeaker {
  return {
    kind: 'person',
    user_id: person.userId,
    name: personName(person),
    persona_id: person.personaId,
    avatar: person.personaAvatarUrl,
  };
}

/** The history as the turn rule reads it: lines before the scene became a group are its first character's. */
function turnMessages(history: PromptRow[], firstBotId: string): TurnMessage[] {
  return history
    .filter((row) => row.role !== 'system')
    .map((row) => ({
      speakerBotId: row.role === 'bot' ? (row.speaker?.kind === 'character' ? row.speaker.bot_id : firstBotId) : null,
      text: row.text,
    }));
}

export interface SpeakerChoiceDeps {
  llm: Pick<Llm, 'generate' | 'models'>;
  log: Pick<ServiceLog, 'warn'>;
}

/** How long the model may take to name the next speaker before the first candidate is taken. */
const MODEL_CHOICE_TIMEOUT_MS = 5000;

/**
 * Who speaks next (`selectSpeaker`), asking the model only when the rule cannot tell; null:
 * nobody (manual mode, or only the last speaker is left).
 */
export async function chooseSpeaker(
  deps: SpeakerChoiceDeps,
  cast: SceneCast,
  history: PromptRow[],
  trigger: 'person' | 'continue',
): Promise<string | null> {
  const characters: TurnCharacter[] = cast.characters.map(({ link, bot }) => ({
    botId: bot.id,
    name: bot.name,
    muted: link.muted,
  }));
  const recent = turnMessages(history, cast.characters[0]?.bot.id ?? cast.chat.botId);
  const decision = selectSpeaker({ characters, recent, trigger, mode: cast.chat.turnMode });
  if (decision.kind === 'none') return null;
  if (decision.kind === 'speaker') return decision.botId;
  const candidates = characters.filter((c) => decision.candidates.includes(c.botId));
  const names = new Map(characters.map((c) => [c.botId, c.name]));
  const model = deps.llm.models().find((m) => m.id === cast.chat.modelId && !m.premium) ?? deps.llm.models()[0]!;
  const signal = AbortSignal.timeout(MODEL_CHOICE_TIMEOUT_MS);
  try {
    let answer = '';
    for await (const piece of deps.llm.generate({
      model: model.id,
      messages: modelChoicePrompt(candidates, recent, names),
      maxTokens: 12,
      temperature: 0,
      signal,
    }))
      answer += piece;
    return readModelChoice(answer, candidates);
  } catch (error) {
    deps.log.warn({ err: error, chatId: cast.chat.id }, 'the model could not pick the next speaker; taking the first');
    return candidates[0]!.botId;
  }
}

/**
 * The generation context of `botId`'s reply in the scene: her card, the chat with her id (so
 * her memories are the prompt's and the reply is hers), the setting and who is present, the
 * persona of the person answered (null: the owner's chosen persona, if any).
 */
export function sceneGeneration(
  cast: SceneCast,
  botId: string,
  answered: ScenePersonRow | null,
  rest: Pick<GenerationContext, 'locale' | 'history'>,
): GenerationContext {
  const speaker = cast.characters.find((c) => c.bot.id === botId)!.bot;
  const person = answered ?? cast.people[0]!;
  return {
    chat: { ...cast.chat, botId },
    bot: speaker,
    userName: personName(person),
    locale: rest.locale,
    history: rest.history,
    scene: {
      prompt: {
        place: cast.chat.scenePlace,
        situation: cast.chat.sceneSituation,
        characters: cast.characters.filter((c) => c.bot.id !== botId).map((c) => c.bot.name),
        people: cast.people.map(personName),
      },
      persona:
        person.personaName !== null ? { name: person.personaName, description: person.personaDescription ?? '' } : null,
    },
  };
}
