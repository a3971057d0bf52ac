import type { Locale, Message } from '@reverie/shared';
import { Counter, Histogram, type Registry } from 'prom-client';
import type { Database } from '../../db/client.js';
import { hasTranslation, translate } from '../../lib/i18n.js';
import { LlmError, type LlmProvider, type ModelEntry } from '../../providers/llm/llm.js';
import { hasPremium } from '../billing/billing.service.js';
import { findOwnPersona, type PromptBot, type PromptRow } from './chat-context.repository.js';
import { type ChatRow } from './chats.repository.js';
import { type MessageRow } from './messages.repository.js';
import { recordSafetyEvent } from './safety-events.repository.js';
import type { Generation } from './generations.js';
import { ReplySaves } from './reply-saves.js';
import { buildPrompt, type PromptMessage } from './prompt.js';
import { refusalText, StreamingMinorsGuard, violatesMinorsPolicy } from './safety.js';

interface Logger {
  warn(object: object, message?: string): void;
  error(object: object, message?: string): void;
}

export interface RunnerDeps {
  db: Database;
  llm: LlmProvider;
  log: Logger;
  /** The most tokens a reply may have. */
  maxTokens: number;
  temperature: number;
  /** How often a streaming reply is saved at most (2 s; it is always saved when it ends). */
  saveEveryMs?: number;
  /** The live reply's lease, renewed with each save. */
  leaseMs: number;
  metrics?: Registry;
  /** Called after a reply that left older messages out of the prompt (memory summary). */
  onTruncated?: (request: SummaryRequest) => void;
  /** The saves' group commit; by default one of its own on `db`. */
  saves?: ReplySaves;
  /** The saves commit without waiting for the disk (`db/commit-mode.ts`; CHAT_SYNCHRONOUS_COMMIT). */
  relaxedCommit?: boolean;
}

/** What a finished reply asks of the memory: fold the messages before `beforeSeq` into it. */
export interface SummaryRequest {
  chatId: string;
  characterName: string;
  locale: Locale;
  model: string;
  beforeSeq: number;
}

/** What a generation is given: the chat, its character, the user's name and the prompt's messages. */
export interface GenerationContext {
  chat: ChatRow;
  bot: PromptBot;
  userName: string;
  locale: Locale;
  /** The shown messages up to the one answered, oldest first. */
  history: Promise<PromptRow[]>;
  /** The seq of the message answered (when `written` is given, it gives the seq instead). */
  throughSeq: number;
  /**
   * Given when the generation starts before its reply's row is written (the model's request
   * goes out meanwhile): resolves with the answered message's seq once the row exists, rejects
   * when it never will (then nothing is shown or saved). Nothing reaches a stream or the
   * database before it resolves.
   */
  written?: Promise<number>;
}

/** How a generation ended, decided once from what happened. */
export type Outcome = 'completed' | 'refused' | 'stopped' | 'timeout' | 'interrupted' | 'empty' | { error: string };

/** The one table from outcome to the reply's saved state. */
export function settle(outcome: Outcome): {
  state: Exclude<MessageRow['state'], 'streaming'>;
  errorCode: string | null;
} {
  if (typeof outcome === 'object') return { state: 'failed', errorCode: outcome.error };
  switch (outcome) {
    case 'completed':
      return { state: 'done', errorCode: null };
    case 'refused':
      return { state: 'done', errorCode: 'refused' };
    case 'stopped':
      return { state: 'stopped', errorCode: null };
    case 'timeout':
      return { state: 'failed', errorCode: 'timeout' };
    case 'interrupted':
      return { state: 'failed', errorCode: 'interrupted' };
    case 'empty':
      return { state: 'failed', errorCode: 'empty_reply' };
  }
}

/** The codes a failed reply may show; anything else a provider says is `provider_error`. */
const STREAM_ERROR_CODES = new Set([
  'provider_error',
  'model_unavailable',
  'model_loading',
  'rate_limited',
  'timeout',
  'empty_reply',
  'interrupted',
  'internal_error',
]);

export function streamErrorCode(code: string | null | undefined): string {
  return code && STREAM_ERROR_CODES.has(code) ? code : 'provider_error';
}

/**
 * The text of a stream's `error` event: the code's generic, translated text — never the
 * provider's own message, which may name its endpoint, address or echo its answer's body.
 */
export function streamErrorText(locale: Locale, code: string): string {
  const key = `errors.${code}`;
  return translate(locale, hasTranslation(key) ? key : 'errors.provider_error');
}

/** The `error` event that follows a failed reply's final message. */
export function errorEvent(locale: Locale, message: Pick<Message, 'id' | 'error_code'>) {
  const code = streamErrorCode(message.error_code);
  return { event: 'error' as const, data: { code, detail: streamErrorText(locale, code), message_id: message.id } };
}

/**
 * Runs one generation: waits for a model still loading, builds the prompt, streams the
 * model's pieces into the `Generation` (idle timeout, minors guard, a save every 2 s that
 * also renews the lease), then decides the outcome once and saves the final state.
 */
export class GenerationRunner {
  private readonly firstToken?: Histogram;
  private readonly replies?: Counter<'state'>;
  /** Every save of the replies, grouped across replies into few statements. */
  readonly saves: ReplySaves;

  constructor(private readonly deps: RunnerDeps) {
    this.saves = deps.saves ?? new ReplySaves(deps.db, deps.relaxedCommit);
    if (deps.metrics) {
      this.firstToken = new Histogram({
        name: 'reverie_chat_first_token_seconds',
        help: "Time from a chat request's arrival to the reply's first piece from the model",
        buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
        registers: [deps.metrics],
      });
      this.replies = new Counter({
        name: 'reverie_chat_replies_total',
        help: 'Chat replies by final state (done, stopped, failed)',
        labelNames: ['state'],
        registers: [deps.metrics],
      });
    }
  }

  /** The chat's model: its own when still in the catalogue and allowed, else the default. */
  private async modelFor(chat: ChatRow): Promise<ModelEntry> {
    const models = this.deps.llm.models();
    const chosen = chat.modelId ? models.find((m) => m.id === chat.modelId) : undefined;
    if (chosen && (!chosen.premium || (await hasPremium(this.deps.db, chat.userId)))) return chosen;
    return models[0]!;
  }

  /** A model still loading: the reply says so (`status`) and waits for it, however long. */
  private async waitForModel(generation: Generation, signal: AbortSignal): Promise<void> {
    const { llm } = this.deps;
    let status = llm.status();
    if (status.ready || status.code !== 'model_loading') {
      if (!status.ready) throw new LlmError(status.code, status.detail);
      return;
    }
    generation.emit({ event: 'status', data: { message_id: generation.messageId, status: 'warming_up' } });
    const aborted = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    while (!status.ready && status.code === 'model_loading' && !signal.aborted) {
      await Promise.race([llm.warmUp?.() ?? Promise.resolve(), aborted]);
      if (!llm.warmUp) await Promise.race([new Promise((resolve) => setTimeout(resolve, 500)), aborted]);
      status = llm.status();
    }
    signal.throwIfAborted();
    if (!status.ready) throw new LlmError(status.code, status.detail);
  }

  async run(generation: Generation, context: GenerationContext): Promise<void> {
    const { db, llm, log } = this.deps;
    const { chat, bot, locale } = context;
    const saveEvery = this.deps.saveEveryMs ?? 2000;
    const guard = new StreamingMinorsGuard();
    let outcome: Outcome = 'completed';
    let refused = false;
    let truncated = false;
    let foldBeforeSeq = 0;
    let modelId = '';
    let pendingSave: Promise<unknown> | null = null;
    let lastSave = Date.now();
    // A model that goes silent is the provider's to notice (its one idle timeout): it throws
    // an LlmError with the code `timeout`.
    const decide = (error?: unknown): Outcome => {
      if (refused) return 'refused';
      if (generation.stopRequested) return 'stopped';
      if (generation.controller.signal.aborted) return 'interrupted';
      if (error !== undefined) return { error: error instanceof LlmError ? error.code : 'provider_error' };
      return generation.text.trim() ? 'completed' : 'empty';
    };

    // Whether the reply's row exists (at once, unless the generation started before it was
    // written); false when it never will: the generation then ends without a trace.
    let throughSeq = context.throughSeq;
    const written = async (): Promise<boolean> => {
      if (!context.written) return true;
      try {
        throughSeq = await context.written;
        return true;
      } catch {
        generation.controller.abort(new Error('the reply was not written'));
        generation.finish();
        return false;
      }
    };

    try {
      // A model still loading says so on the stream, which needs the reply's row first.
      if (!llm.status().ready && !(await written())) return;
      await this.waitForModel(generation, generation.controller.signal);
      const model = await this.modelFor(chat);
      modelId = model.id;
      const [persona, history] = await Promise.all([
        chat.personaId ? findOwnPersona(db, chat.personaId, chat.userId) : null,
        context.history,
      ]);
      const storedCounts = llm.estimatesTokens === true;
      const prompt = await buildPrompt({
        character: {
          name: bot.name,
          description: bot.description,
          personality: [...bot.personality, bot.personalityText].filter(Boolean).join(', '),
          scenario: bot.scenario,
          exampleMessages: bot.exampleMessages,
          systemPrompt: bot.systemPrompt,
          postHistoryInstructions: bot.postHistoryInstructions,
          lorebook: bot.characterBook,
        },
        userName: persona?.name ?? context.userName,
        persona: persona ? { name: persona.name, description: persona.description } : null,
        memory: chat.memory,
        history: history.map((m): PromptMessage => ({
          role: m.role,
          text: m.text,
          tokens: storedCounts ? m.tokens : undefined,
        })),
        locale,
        contextSize: model.contextSize,
        maxTokens: this.deps.maxTokens,
        countTokens: (text) => llm.countTokens(model.id, text),
      });
      truncated = prompt.truncated;
      // When older messages were left out, the summary folds them and the older half of what
      // still fitted: the next replies then have room again instead of asking for a summary
      // after every message.
      const keep = Math.max(2, Math.ceil(prompt.historyIncluded / 2));
      foldBeforeSeq = history[history.length - keep]?.seq ?? -1;

      const signal = generation.controller.signal;
      const pieces = llm.generate({
        model: model.id,
        messages: prompt.messages,
        maxTokens: this.deps.maxTokens,
        temperature: this.deps.temperature,
        signal,
      });
      const stream = pieces[Symbol.asyncIterator]();
      // The request is on its way; the reply's row must exist before its first piece is shown.
      let step = stream.next();
      step.catch(() => undefined); // awaited below; a failure meanwhile is not unhandled
      if (!(await written())) return;
      try {
        for (let result = await step; !result.done; result = await step) {
          const piece = result.value;
          if (signal.aborted) break;
          if (piece) {
            if (!generation.text) this.firstToken?.observe((performance.now() - generation.startedAt) / 1000);
            generation.append(piece);
            // Such a reply is stopped at once; the whole reply is checked again at the end.
            if (guard.violates(generation.text)) {
              refused = true;
              generation.controller.abort(new Error('refused by the minors guard'));
              break;
            }
            const now = Date.now();
            if (!pendingSave && now - lastSave >= saveEvery) {
              lastSave = now;
              pendingSave = this.saves
                .progress(generation.messageId, generation.text, this.deps.leaseMs)
                .catch((error: unknown) => log.warn({ err: error }, 'could not save a streaming reply'))
                .finally(() => (pendingSave = null));
            }
          }
          step = stream.next();
        }
      } finally {
        // Ends the model's request when the loop left early (stop, the minors guard, an error).
        void stream.return?.(undefined)?.catch(() => undefined);
      }
      outcome = decide();
    } catch (error) {
      outcome = decide(error);
      // The provider's text (endpoint, status, upstream body) goes to the log only; the
      // stream's `error` event carries the code and a generic text (streamErrorText).
      if (typeof outcome === 'object')
        log.warn({ err: error, chatId: chat.id, model: modelId, code: outcome.error }, 'a reply failed');
    }

    // A generation that failed before its row was written (the model unavailable) waits for it.
    if (!(await written())) return;
    let text = generation.text;
    // The minors guard on output: such a reply is never shown or kept.
    if (outcome === 'refused' || (text && violatesMinorsPolicy(text))) {
      outcome = 'refused';
      text = refusalText(locale);
      await recordSafetyEvent(db, { userId: chat.userId, kind: 'minors_output', locale }).catch(() => undefined);
      log.warn({ chatId: chat.id, model: modelId }, 'a reply was refused by the minors guard');
    }
    const { state, errorCode } = settle(outcome);
    try {
      if (pendingSave) await pendingSave;
      this.replies?.inc({ state });
      await this.saves.final(generation.messageId, { text, state, errorCode });
      const final = { ...generation.snapshot(), text, state, error_code: errorCode };
      generation.emit({ event: 'bot_message', data: final });
      if (state === 'failed') generation.emit(errorEvent(locale, final));
    } catch (error) {
      log.error({ err: error, chatId: chat.id }, 'could not save a finished reply');
      generation.emit(errorEvent(locale, { id: generation.messageId, error_code: 'internal_error' }));
    } finally {
      generation.finish();
    }
    if (state === 'done' && truncated && this.deps.onTruncated)
      this.deps.onTruncated({
        chatId: chat.id,
        characterName: bot.name,
        locale,
        model: modelId,
        beforeSeq: foldBeforeSeq < 0 ? throughSeq : foldBeforeSeq,
      });
  }
}
