import type { Locale, Message } from '@reverie/shared';
import { Counter, Histogram, type Registry } from 'prom-client';
import type { Database } from '../../db/client.js';
import { hasTranslation, translate } from '../../lib/i18n.js';
import { LlmError, type ChatTurn, type LlmProvider, type ModelEntry } from '../../providers/llm/llm.js';
import { hasPremium } from '../billing/index.js';
import { findOwnPersona, type PromptBot, type PromptRow } from './chat-context.repository.js';
import { type ChatRow } from './chats.repository.js';
import { type MessageRow } from './messages.repository.js';
import { recordSafetyEvent } from './safety-events.repository.js';
import type { Generation } from './generations.js';
import { ReplySaves } from './reply-saves.js';
import { buildPrompt, type PromptMessage } from './prompt.js';
import { refusalText, StreamingMinorsGuard, violatesMinorsPolicy } from './safety.js';
import type { ServiceLog } from '../../lib/logger.js';

type Logger = Pick<ServiceLog, 'warn' | 'error'>;

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
}

/**
 * The reply's row as its writer reports it to a generation started before it was written
 * (the model's request goes out meanwhile): the runner creates it, the writer says `written`
 * or `refused` once, and nothing reaches a stream or the database before `written`.
 */
export class ReplyRow {
  private report: ((throughSeq: number | null) => void) | null = null;
  private readonly reported: Promise<number | null>;

  constructor(throughSeq?: number) {
    this.reported =
      throughSeq === undefined ? new Promise((resolve) => (this.report = resolve)) : Promise.resolve(throughSeq);
  }

  /** The row exists; `throughSeq` is the seq of the message it answers. */
  written(throughSeq: number): void {
    this.report?.(throughSeq);
  }

  /** The row will never exist (a second live reply, the same client_id again): no trace is left. */
  refused(): void {
    this.report?.(null);
  }

  /** The answered message's seq once the row exists; null when it never will. */
  seq(): Promise<number | null> {
    return this.reported;
  }
}

/** What one run carries from step to step. */
interface Run {
  readonly generation: Generation;
  readonly context: GenerationContext;
  readonly row: ReplyRow;
  readonly guard: StreamingMinorsGuard;
  /** The minors guard stopped the reply while it streamed. */
  refused: boolean;
  /** Older messages were left out of the prompt (a memory summary follows a finished reply). */
  truncated: boolean;
  /** Where the memory summary folds up to (-1: through the answered message). */
  foldBeforeSeq: number;
  modelId: string;
  pendingSave: Promise<unknown> | null;
  lastSave: number;
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
  private readonly saveEvery: number;
  /** The generations running in this process (awaited by `idle` and `close`). */
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly deps: RunnerDeps) {
    this.saves = deps.saves ?? new ReplySaves(deps.db, deps.relaxedCommit);
    this.saveEvery = deps.saveEveryMs ?? 2000;
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

  /** Runs a generation whose reply row exists, in the background (`idle` and `close` wait for it). */
  start(generation: Generation, context: GenerationContext, throughSeq: number): void {
    this.launch(generation, context, new ReplyRow(throughSeq));
  }

  /**
   * Starts a generation before its reply's row is written: the model's request goes out now.
   * Answers the `ReplyRow` through which the writer tells it how the write went.
   */
  startBeforeRow(generation: Generation, context: GenerationContext): ReplyRow {
    const row = new ReplyRow();
    this.launch(generation, context, row);
    return row;
  }

  private launch(generation: Generation, context: GenerationContext, row: ReplyRow): void {
    const run = this.run({
      generation,
      context,
      row,
      guard: new StreamingMinorsGuard(),
      refused: false,
      truncated: false,
      foldBeforeSeq: 0,
      modelId: '',
      pendingSave: null,
      lastSave: Date.now(),
    });
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  /** Waits until the generations started here have ended, those started meanwhile too (tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** Waits for the generations (aborted by `LiveReplies.close`) and every save they asked for. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.running]);
    // Every save asked for is written before the database closes.
    await this.saves.close();
  }

  private async run(run: Run): Promise<void> {
    let outcome: Outcome | null;
    try {
      outcome = await this.generate(run);
    } catch (error) {
      outcome = this.decide(run, error);
      // The provider's text (endpoint, status, upstream body) goes to the log only; the
      // stream's `error` event carries the code and a generic text (streamErrorText).
      if (typeof outcome === 'object')
        this.deps.log.warn(
          { err: error, chatId: run.context.chat.id, model: run.modelId, code: outcome.error },
          'a reply failed',
        );
    }
    if (outcome === null) return;
    // A generation that failed before its row was written (the model unavailable) waits for it.
    const throughSeq = await this.rowWritten(run);
    if (throughSeq === null) return;
    const state = await this.saveFinal(run, outcome);
    if (state === 'done' && run.truncated) this.requestSummary(run, throughSeq);
  }

  /**
   * The answered message's seq once the reply's row exists (at once, unless the generation
   * started before it was written); null when it never will: the generation then ends
   * without a trace.
   */
  private async rowWritten(run: Run): Promise<number | null> {
    const seq = await run.row.seq();
    if (seq === null) {
      run.generation.controller.abort(new Error('the reply was not written'));
      run.generation.finish();
    }
    return seq;
  }

  /** Asks the model and streams its reply into the generation; null when its row never came to be. */
  private async generate(run: Run): Promise<Outcome | null> {
    const { generation } = run;
    const { llm } = this.deps;
    // A model still loading says so on the stream, which needs the reply's row first.
    if (!llm.status().ready && (await this.rowWritten(run)) === null) return null;
    await this.waitForModel(generation, generation.controller.signal);
    const { model, messages } = await this.preparePrompt(run);
    const pieces = llm.generate({
      model,
      messages,
      maxTokens: this.deps.maxTokens,
      temperature: this.deps.temperature,
      signal: generation.controller.signal,
    });
    const stream = pieces[Symbol.asyncIterator]();
    // The request is on its way; the reply's row must exist before its first piece is shown.
    const first = stream.next();
    first.catch(() => undefined); // awaited below; a failure meanwhile is not unhandled
    if ((await this.rowWritten(run)) === null) return null;
    await this.streamPieces(run, stream, first);
    return this.decide(run);
  }

  /** The chat's model and the prompt for it (what was left out of it is noted for the memory). */
  private async preparePrompt(run: Run): Promise<{ model: string; messages: ChatTurn[] }> {
    const { db, llm } = this.deps;
    const { chat, bot, locale, userName } = run.context;
    const model = await this.modelFor(chat);
    run.modelId = model.id;
    const [persona, history] = await Promise.all([
      chat.personaId ? findOwnPersona(db, chat.personaId, chat.userId) : null,
      run.context.history,
    ]);
    const storedCounts = llm.estimatesTokens === true;
    const prompt = await buildPrompt({
      character: characterCard(bot),
      userName: persona?.name ?? userName,
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
    run.truncated = prompt.truncated;
    // When older messages were left out, the summary folds them and the older half of what
    // still fitted: the next replies then have room again instead of asking for a summary
    // after every message.
    const keep = Math.max(2, Math.ceil(prompt.historyIncluded / 2));
    run.foldBeforeSeq = history[history.length - keep]?.seq ?? -1;
    return { model: model.id, messages: prompt.messages };
  }

  /** Streams the model's pieces from `first` on, until the end, a stop, the minors guard or an error. */
  private async streamPieces(run: Run, stream: AsyncIterator<string>, first: Promise<IteratorResult<string>>) {
    const signal = run.generation.controller.signal;
    let step = first;
    try {
      for (let result = await step; !result.done; result = await step) {
        const piece = result.value;
        if (signal.aborted) break;
        if (piece && !this.takePiece(run, piece)) break;
        step = stream.next();
      }
    } finally {
      // Ends the model's request when the loop left early (stop, the minors guard, an error).
      void stream.return?.(undefined)?.catch(() => undefined);
    }
  }

  /** One piece of the reply: shown, checked, saved every 2 s; false when the minors guard stops the reply. */
  private takePiece(run: Run, piece: string): boolean {
    const { generation } = run;
    if (!generation.text) this.firstToken?.observe((performance.now() - generation.startedAt) / 1000);
    generation.append(piece);
    // Such a reply is stopped at once; the whole reply is checked again at the end.
    if (run.guard.violates(generation.text)) {
      run.refused = true;
      generation.controller.abort(new Error('refused by the minors guard'));
      return false;
    }
    const now = Date.now();
    if (!run.pendingSave && now - run.lastSave >= this.saveEvery) {
      run.lastSave = now;
      run.pendingSave = this.saves
        .progress(generation.messageId, generation.text, this.deps.leaseMs)
        .catch((error: unknown) => this.deps.log.warn({ err: error }, 'could not save a streaming reply'))
        .finally(() => (run.pendingSave = null));
    }
    return true;
  }

  /**
   * How the generation ended, decided once from what happened. A model that goes silent is
   * the provider's to notice (its one idle timeout): it throws an LlmError with the code `timeout`.
   */
  private decide(run: Run, error?: unknown): Outcome {
    const { generation } = run;
    if (run.refused) return 'refused';
    if (generation.stopRequested) return 'stopped';
    if (generation.controller.signal.aborted) return 'interrupted';
    if (error !== undefined) return { error: error instanceof LlmError ? error.code : 'provider_error' };
    return generation.text.trim() ? 'completed' : 'empty';
  }

  /** Saves the reply's final state and shows it; answers the state saved. */
  private async saveFinal(run: Run, outcome: Outcome): Promise<ReturnType<typeof settle>['state']> {
    const { generation } = run;
    const { chat, locale } = run.context;
    const { db, log } = this.deps;
    let text = generation.text;
    // The minors guard on output: such a reply is never shown or kept.
    if (outcome === 'refused' || (text && violatesMinorsPolicy(text))) {
      outcome = 'refused';
      text = refusalText(locale);
      await recordSafetyEvent(db, { userId: chat.userId, kind: 'minors_output', locale }).catch(() => undefined);
      log.warn({ chatId: chat.id, model: run.modelId }, 'a reply was refused by the minors guard');
    }
    const { state, errorCode } = settle(outcome);
    try {
      if (run.pendingSave) await run.pendingSave;
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
    return state;
  }

  /** A reply that left older messages out of the prompt asks for a memory summary. */
  private requestSummary(run: Run, throughSeq: number): void {
    const { chat, bot, locale } = run.context;
    this.deps.onTruncated?.({
      chatId: chat.id,
      characterName: bot.name,
      locale,
      model: run.modelId,
      beforeSeq: run.foldBeforeSeq < 0 ? throughSeq : run.foldBeforeSeq,
    });
  }
}

/** The prompt's character card from the character's fields. */
function characterCard(bot: PromptBot) {
  return {
    name: bot.name,
    description: bot.description,
    personality: [...bot.personality, bot.personalityText].filter(Boolean).join(', '),
    scenario: bot.scenario,
    exampleMessages: bot.exampleMessages,
    systemPrompt: bot.systemPrompt,
    postHistoryInstructions: bot.postHistoryInstructions,
    lorebook: bot.characterBook,
  };
}
