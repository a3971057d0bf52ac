/**
 * "Write my reply" and suggested replies (issue 29, docs/chat.md "Write my reply"): the model
 * writes the user's next line in their persona's voice, from the same prompt as a reply (card,
 * persona, lorebook, memory, history) with a last instruction. Nothing is saved or sent: the
 * line streams back to the user's input box; suggestions answer three short lines. Both cost
 * model time, so both count as a send for the fair-use limit (they are free of desires, like a
 * send: PRODUCT.md prices only pictures and voice).
 */
import type { ImpersonateEvent, Locale } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { ChatTurn, LlmProvider } from '../../providers/llm/llm.js';
import { findChatContext, findOwnPersona, type ChatContext } from './chat-context.repository.js';
import { buildPrompt, replaceNames } from './prompt.js';
import type { MessageLimiter } from './replies.service.js';
import { characterCard, type GenerationRunner } from './runner.js';
import { violatesMinorsPolicy } from './safety.js';
import { fairUseRefusal } from './send-plan.js';

export interface ImpersonateDeps {
  db: Database;
  llm: LlmProvider;
  runner: Pick<GenerationRunner, 'modelFor' | 'booksFor'>;
  limiter: MessageLimiter;
  historyBudget: number;
  maxTokens: number;
  temperature: number;
}

const HISTORY_LIMIT = 200;
/** A line of the user is short: at most this many tokens of the model's answer. */
const LINE_TOKENS = 300;
export const SUGGESTION_COUNT = 3;
const SUGGESTION_MAX_CHARS = 160;

const impersonation = (user: string, char: string) =>
  `Now write ${user}'s next message in this conversation, in ${user}'s own voice and manner ` +
  `(as described above, if described), in the language of the conversation. Write only what ${user} ` +
  `says or does, never ${char}'s words or actions, and no explanation: just the message.`;

const suggestion = (user: string, char: string) =>
  `Now suggest ${SUGGESTION_COUNT} different short messages ${user} could send next to ${char}, ` +
  `in the language of the conversation, each under 15 words. One per line, nothing else: no numbers, ` +
  `no quotes, no explanation.`;

/** The model's prompt for a line of the user: the reply's prompt and a last instruction. */
async function userLinePrompt(deps: ImpersonateDeps, context: ChatContext, locale: Locale, instruction: string) {
  const { chat, bot } = context;
  const model = await deps.runner.modelFor(chat);
  const [persona, books] = await Promise.all([
    chat.personaId ? findOwnPersona(deps.db, chat.personaId, chat.userId) : null,
    deps.runner.booksFor(chat, bot),
  ]);
  const userName = persona?.name ?? context.userName;
  const prompt = await buildPrompt({
    character: characterCard(bot, locale),
    books,
    userName,
    persona: persona ? { name: persona.name, description: persona.description } : null,
    memory: chat.memory,
    history: (context.history ?? []).map((m) => ({ role: m.role, text: m.text })),
    locale,
    contextSize: model.contextSize,
    maxTokens: deps.maxTokens,
    countTokens: (text) => deps.llm.countTokens(model.id, text),
  });
  const last: ChatTurn = { role: 'system', content: replaceNames(instruction, bot.name, userName) };
  return { model: model.id, messages: [...prompt.messages, last], userName, charName: bot.name };
}

/** The user's chat read for a line of theirs, once the fair-use limit let it through. */
async function admitted(deps: ImpersonateDeps, userId: string, chatId: string): Promise<ChatContext> {
  const counted = deps.limiter.take(userId);
  counted.catch(() => undefined);
  const context = await findChatContext(deps.db, chatId, userId, {
    limit: HISTORY_LIMIT,
    budget: deps.historyBudget,
  }).catch(() => null);
  if (!context) {
    await counted.then(() => deps.limiter.giveBack(userId)).catch(() => undefined);
    throw notFound();
  }
  const refusal = fairUseRefusal(await counted);
  if (refusal) throw refusal;
  return context;
}

/** The line without a speaker's name the model may put before it ("Anna: …"). */
function cleanLine(text: string, userName: string): string {
  const trimmed = text.trim();
  const prefix = `${userName}:`;
  return (trimmed.startsWith(prefix) ? trimmed.slice(prefix.length) : trimmed).trim();
}

/**
 * Starts writing the user's next line: checks (404, 429) before anything streams, then answers
 * the events — `delta` pieces, then `done` with the whole line (or `error`). The minors guard
 * checks the whole line: a refused line ends with `error` `refused` and no `done`.
 */
export async function impersonate(
  deps: ImpersonateDeps,
  input: { userId: string; chatId: string; locale: Locale; signal: AbortSignal },
): Promise<AsyncIterableIterator<ImpersonateEvent>> {
  const context = await admitted(deps, input.userId, input.chatId);
  const prompt = await userLinePrompt(deps, context, input.locale, impersonation('{{user}}', '{{char}}'));
  return (async function* lines(): AsyncGenerator<ImpersonateEvent> {
    let text = '';
    try {
      const pieces = deps.llm.generate({
        model: prompt.model,
        messages: prompt.messages,
        maxTokens: Math.min(LINE_TOKENS, deps.maxTokens),
        temperature: deps.temperature,
        signal: input.signal,
      });
      for await (const piece of pieces) {
        if (!piece) continue;
        text += piece;
        if (violatesMinorsPolicy(text)) {
          yield { event: 'error', data: { code: 'refused', detail: 'This text breaks the content rules' } };
          return;
        }
        yield { event: 'delta', data: { text: piece } };
      }
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'provider_error';
      yield { event: 'error', data: { code, detail: 'The model could not write a reply' } };
      return;
    }
    yield { event: 'done', data: { text: cleanLine(text, prompt.userName) } };
  })();
}

/** Three short replies the user might send next (asked only when the user turned them on). */
export async function suggestReplies(
  deps: ImpersonateDeps,
  input: { userId: string; chatId: string; locale: Locale; signal: AbortSignal },
): Promise<string[]> {
  const context = await admitted(deps, input.userId, input.chatId);
  const prompt = await userLinePrompt(deps, context, input.locale, suggestion('{{user}}', '{{char}}'));
  let text = '';
  try {
    for await (const piece of deps.llm.generate({
      model: prompt.model,
      messages: prompt.messages,
      maxTokens: Math.min(LINE_TOKENS, deps.maxTokens),
      temperature: deps.temperature,
      signal: input.signal,
    }))
      text += piece;
  } catch (error) {
    throw new AppError((error as { code?: string }).code ?? 'provider_error', {
      status: 503,
      detail: 'The model could not suggest replies',
    });
  }
  return text
    .split('\n')
    .map((line) =>
      cleanLine(line.replace(/^\s*(?:[-*•]|\d+[.)])\s*/, '').replace(/^["«“]|["»”]$/g, ''), prompt.userName),
    )
    .filter((line) => line.length > 0 && line.length <= SUGGESTION_MAX_CHARS && !violatesMinorsPolicy(line))
    .slice(0, SUGGESTION_COUNT);
}
