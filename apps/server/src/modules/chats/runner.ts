import type { Locale, Message } from '@reverie/shared';
import { Counter, Histogram, type Registry } from 'prom-client';
import type { Database } from '../../db/client.js';
import { hasTranslation, translate } from '../../lib/i18n.js';
import { LlmError, type ChatTurn, type LlmProvider, type ModelEntry } from '../../providers/llm/llm.js';
import { hasPremium } from '../billing/index.js';
import { findOwnPersona, type PromptBot, type PromptRow, type StoredForPrompt } from './chat-context.repository.js';
import { type ChatRow } from './chats.repository.js';
import { type MessageRow } from './messages.repository.js';
import { recordSafetyEvent } from './safety-events.repository.js';
import type { Generation } from './generations.js';
import { ReplySaves } from './reply-saves.js';
import { buildPrompt, loreRandom, type PromptMessage, type PromptScene } from './prompt.js';
import { refusalText, StreamingMinorsGuard, violatesMinorsPolicy } from './safety.js';
import type { ServiceLog } from '../../lib/logger.js';
import type { CompiledBook, LorebooksApi } from '../lorebooks/index.js';
import { traceOf } from './chat-lore.js';
import {
  CITATION_INSTRUCTION,
  CitationStream,
  labelledLine,
  stripCitations,
  aheadFits,
  type MemoriesAhead,
  type MemoriesApi,
  type PromptMemories,
} from '../memories/index.js';

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
  /** A reply was written in full (issue 31: unread badges, the "long reply" notification). */
  onFinished?: (finished: FinishedReply) => void;
  /** The saves' group commit; by default one of its own on `db`. */
  saves?: ReplySaves;
  /** The saves commit without waiting for the disk (`db/commit-mode.ts`; CHAT_SYNCHRONOUS_COMMIT). */
  relaxedCommit?: boolean;
  /** Long-term memories (the memories module): the prompt's, each reply's citations, extraction after a turn. */
  memories?: (Pick<MemoriesApi, 'forPrompt' | 'replied'> & Partial<Pick<MemoriesApi, 'readAhead'>>) | null;
  /** Lorebooks (the lorebooks module): the prompt's books; null: the card's own book only. */
  lorebooks?: Pick<LorebooksApi, 'forPrompt'> | null;
  /**
   * How a reply's citations are found (MEMORY_CITATIONS, docs/memory.md "Citations"): `model`
   * labels the prompt's memories and asks the model to name those it used in a trailing marker,
   * which is taken out of the reply as it streams; `overlap` (default) leaves it to the memories module.
   */
  citations?: 'overlap' | 'model';
}

/** The share of the prompt budget long-term memories may take, and the most tokens they take at all. */
export const MEMORY_BUDGET_SHARE = 0.15;
export const MEMORY_BUDGET_MAX = 600;

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
  /**
   * A group scene (docs/groups.md): its setting and who is present, and the persona of the
   * person answered (null: none). `chat.botId` is then the speaking character's id, so her
   * memories and card are the reply's.
   */
  scene?: { prompt: PromptScene; persona: { name: string; description: string } | null } | null;
  /**
   * Whether the pair has memories and lorebooks, as the send read them with the chat (a
   * one-to-one send): a false one is not read again. Absent: both are read.
   */
  stored?: StoredForPrompt;
  /** The memories read ahead with the chat (a send; `MemoriesApi.readAhead`), used when they fit its turns. */
  memoriesAhead?: MemoriesAhead | null;
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
  /** The long-term memories the prompt held (prompt order). */
  memoryIds: string[];
  /** What went into the prompt (stored with the reply once its row exists). */
  trace: Record<string, unknown> | null;
  /** Citations asked of the model: the marker taken out of the stream, and the labelled memories (label order). */
  citations: CitationStream | null;
  labelledIds: string[];
  pendingSave: Promise<unknown> | null;
  lastSave: number;
}

/** A reply written in full: who it is for, and how long it took. */
export interface FinishedReply {
  userId: string;
  chatId: string;
  botId: string;
  text: string;
  tookMs: number;
  /** A group chat's reply: every person of the scene has it unread (docs/groups.md). */
  group?: boolean;
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
  async modelFor(chat: ChatRow): Promise<ModelEntry> {
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
      memoryIds: [],
      trace: null,
      citations: null,
      labelledIds: [],
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
    const startedAt = performance.now();
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
    // The prompt's trace is kept in the final save's statement (it never delays the reply).
    const state = await this.saveFinal(run, outcome);
    if (state === 'done' && run.truncated) this.requestSummary(run, throughSeq);
    // Never a reply the minors guard replaced (saveFinal wrote the refusal instead).
    if (outcome === 'completed' && state === 'done' && !violatesMinorsPolicy(run.generation.text)) {
      const { chat, bot } = run.context;
      this.deps.onFinished?.({
        userId: chat.userId,
        chatId: chat.id,
        botId: bot.id,
        text: run.generation.text,
        tookMs: performance.now() - startedAt,
        group: chat.isGroup,
      });
    }
    await this.afterReply(run, state);
  }

  /** What went into the reply's prompt (docs/lorebooks.md), kept with its final save; none before a prompt was built. */
  private savedTrace(run: Run) {
    const { chat } = run.context;
    return run.trace ? { userId: chat.userId, chatId: chat.id, trace: run.trace } : undefined;
  }

  /**
   * The prompt's lorebooks; on failure (logged) the card's own book, as before any edit ("Write
   * my reply" too). `noneStored`: the send found no stored book (only the card's own is compiled).
   */
  booksFor(chat: ChatRow, bot: PromptBot, noneStored = false): Promise<CompiledBook[] | undefined> {
    const lorebooks = this.deps.lorebooks;
    if (!lorebooks) return Promise.resolve(undefined);
    return lorebooks
      .forPrompt({ userId: chat.userId, botId: chat.botId, chatId: chat.id, cardBook: bot.characterBook, noneStored })
      .catch((error: unknown) => {
        this.deps.log.warn({ err: error, chatId: chat.id }, 'lorebooks: could not read the prompt books');
        return undefined;
      });
  }

  /**
   * A send's long-term memories read ahead, while its chat and history are read (docs/memory.md
   * "Retrieval"); null when the memories module has nothing noted for the chat (nothing is read).
   */
  readMemoriesAhead(chatId: string, userId: string, text: string): MemoriesAhead | null {
    try {
      return this.deps.memories?.readAhead?.({ chatId, userId, text }) ?? null;
    } catch (error) {
      this.deps.log.warn({ err: error, chatId }, 'memories: could not read ahead');
      return null;
    }
  }

  /** Tells the memories module: the reply's citations, and a user turn to extract memories from. */
  private async afterReply(run: Run, state: ReturnType<typeof settle>['state']): Promise<void> {
    const memories = this.deps.memories;
    if (!memories) return;
    const { chat, bot, userName, locale } = run.context;
    await memories
      .replied({
        messageId: run.generation.messageId,
        chatId: chat.id,
        userId: chat.userId,
        botId: chat.botId,
        memoryIds: run.memoryIds,
        reply: state === 'done' && !run.refused ? run.generation.text : '',
        cited: run.citations ? citedIds(run) : undefined,
        characterName: bot.name,
        userName,
        locale,
      })
      .catch((error: unknown) =>
        this.deps.log.warn({ err: error, chatId: chat.id }, 'memories: could not note a reply'),
      );
  }

  /**
   * The long-term memories for a prompt (none when the memories module is off or fails: the
   * reply goes on). `noneStored`: the send found none for the pair — what the module would answer.
   */
  private promptMemories(
    chat: ChatRow,
    history: Promise<PromptRow[]>,
    noneStored = false,
    ahead?: MemoriesAhead | null,
  ): Promise<PromptMemories | null> {
    const memories = this.deps.memories;
    if (!memories) return Promise.resolve(null);
    if (noneStored) return Promise.resolve({ ids: [], lines: [] });
    const models = this.deps.llm.models();
    const model = models.find((m) => m.id === chat.modelId) ?? models[0]!;
    const budget = Math.min(
      MEMORY_BUDGET_MAX,
      Math.floor((model.contextSize - this.deps.maxTokens) * MEMORY_BUDGET_SHARE),
    );
    return history
      .then((rows) => {
        const turns = rows
          .filter((m) => m.role !== 'system')
          .slice(-3)
          .map((m) => m.text);
        // Read ahead with the chat, of these very turns: already on its way (or done).
        if (aheadFits(ahead, chat.botId, turns, budget)) return ahead.result;
        return memories.forPrompt({
          userId: chat.userId,
          botId: chat.botId,
          chatId: chat.id,
          turns,
          budgetTokens: budget,
        });
      })
      .catch((error: unknown) => {
        this.deps.log.warn({ err: error, chatId: chat.id }, 'memories: could not read the prompt memories');
        return null;
      });
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
    const { model, prompt, history, labelledIds } = await this.promptFor(run.context);
    run.modelId = model.id;
    run.truncated = prompt.truncated;
    run.memoryIds = prompt.memoryIds;
    run.trace = traceOf(prompt, run.context.chat);
    run.labelledIds = labelledIds;
    run.citations = labelledIds.length ? new CitationStream() : null;
    // When older messages were left out, the summary folds them and the older half of what
    // still fitted: the next replies then have room again instead of asking for a summary
    // after every message.
    const keep = Math.max(2, Math.ceil(prompt.historyIncluded / 2));
    run.foldBeforeSeq = history[history.length - keep]?.seq ?? -1;
    return { model: model.id, messages: prompt.messages };
  }

  /**
   * The prompt of a reply: the same for every message the character writes (platform rules,
   * card, persona, memory, lorebook, history); `reserve` tokens are kept free for a turn added after it.
   */
  private async promptFor(
    context: Omit<GenerationContext, 'history'> & { history: Promise<PromptRow[]> },
    reserve = 0,
  ) {
    const { db, llm } = this.deps;
    const { chat, bot, locale, userName } = context;
    const model = await this.modelFor(chat);
    const scene = context.scene ?? null;
    const [persona, history, longTerm, books] = await Promise.all([
      scene ? scene.persona : chat.personaId ? findOwnPersona(db, chat.personaId, chat.userId) : null,
      context.history,
      this.promptMemories(chat, context.history, context.stored?.memories === false, context.memoriesAhead),
      this.booksFor(chat, context.bot, context.stored?.lorebooks === false),
    ]);
    // Citations asked of the model: each memory line labelled, the instruction before them.
    const labelled: { ids: string[]; lines: string[]; note?: string } | null =
      longTerm && this.deps.citations === 'model' && longTerm.ids.length
        ? { ids: longTerm.ids, lines: longTerm.lines.map(labelledLine), note: CITATION_INSTRUCTION }
        : longTerm;
    const storedCounts = llm.estimatesTokens === true;
    const prompt = await buildPrompt({
      character: characterCard(bot, locale),
      userName: persona?.name ?? userName,
      persona: persona ? { name: persona.name, description: persona.description } : null,
      memory: chat.memory,
      longTermMemory: labelled ?? undefined,
      authorNote: { text: chat.authorNote, depth: chat.authorNoteDepth },
      books,
      random: loreRandom(`${chat.id}:${history.at(-1)?.id ?? ''}`),
      history: history.map((m): PromptMessage => ({
        role: m.role,
        text: m.text,
        tokens: storedCounts ? m.tokens : undefined,
        speaker: m.speaker
          ? { name: m.speaker.name, self: m.speaker.kind === 'character' && m.speaker.bot_id === bot.id }
          : null,
      })),
      scene: scene?.prompt ?? null,
      locale,
      contextSize: model.contextSize,
      maxTokens: this.deps.maxTokens + reserve,
      countTokens: (text) => llm.countTokens(model.id, text),
    });
    return { model, prompt, history, labelledIds: labelled?.note ? labelled.ids : [] };
  }

  /**
   * A whole message the character writes first, not streamed (docs/companion.md): the prompt
   * of a reply with `instruction` as the last turn, the same minors guard on output. Answers
   * the text, or null when the guard refused it (the event is recorded, nothing is written).
   * A model error throws (the caller's retry decides).
   */
  async compose(context: GenerationContext, instruction: string, signal: AbortSignal): Promise<string | null> {
    const { llm, db, log } = this.deps;
    const { chat, locale } = context;
    await waitReady(llm, signal);
    const reserve = Math.ceil(await llm.countTokens((await this.modelFor(chat)).id, instruction)) + 8;
    const { model, prompt } = await this.promptFor(context, reserve);
    let text = '';
    for await (const piece of llm.generate({
      model: model.id,
      messages: [...prompt.messages, { role: 'system', content: instruction }],
      maxTokens: this.deps.maxTokens,
      temperature: this.deps.temperature,
      signal,
    })) {
      text += piece;
    }
    // Her message names no memory on screen (MEMORY_CITATIONS=model asks for a marker).
    text = stripCitations(text).text;
    if (!text) throw new LlmError('empty_reply', 'the model wrote nothing');
    if (violatesMinorsPolicy(text)) {
      await recordSafetyEvent(db, { userId: chat.userId, kind: 'minors_output', locale }).catch(() => undefined);
      log.warn({ chatId: chat.id, model: model.id }, 'a proactive message was refused by the minors guard');
      return null;
    }
    return text;
  }

  /** Streams the model's pieces from `first` on, until the end, a stop, the minors guard or an error. */
  private async streamPieces(run: Run, stream: AsyncIterator<string>, first: Promise<IteratorResult<string>>) {
    const signal = run.generation.controller.signal;
    let step = first;
    try {
      for (let result = await step; !result.done; result = await step) {
        const piece = result.value;
        if (signal.aborted) break;
        // A citation marker never reaches the screen or the database (MEMORY_CITATIONS=model).
        const shown = run.citations && piece ? run.citations.push(piece) : piece;
        if (shown && !this.takePiece(run, shown)) break;
        step = stream.next();
      }
      const rest = run.citations && !signal.aborted && !run.refused ? run.citations.end() : '';
      if (rest) this.takePiece(run, rest);
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
      const at = new Date();
      await this.saves.final(generation.messageId, { text, state, errorCode }, this.savedTrace(run), at);
      const snapshot = generation.snapshot();
      // A first reply's time is when it was written (saveReplies), not the message it answers.
      const createdAt = snapshot.alt_index === 0 ? at.toISOString() : snapshot.created_at;
      const final = { ...snapshot, text, state, error_code: errorCode, created_at: createdAt };
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

/** The model ready, or an LlmError (a model still loading is waited for, like a reply's). */
async function waitReady(llm: LlmProvider, signal: AbortSignal): Promise<void> {
  let status = llm.status();
  while (!status.ready && status.code === 'model_loading' && !signal.aborted) {
    await (llm.warmUp?.() ?? new Promise((resolve) => setTimeout(resolve, 500)));
    status = llm.status();
  }
  signal.throwIfAborted();
  if (!status.ready) throw new LlmError(status.code, status.detail);
}

/**
 * The prompt's character card from the character's fields, in the user's language where the
 * character has a translation (the official ones: docs/characters.md "Localization").
 */
export function characterCard(bot: PromptBot, locale: Locale = 'en') {
  const text = locale === 'en' ? undefined : bot.translations?.[locale];
  return {
    name: bot.name,
    description: text?.description ?? bot.description,
    personality: [...(text?.personality ?? bot.personality), bot.personalityText].filter(Boolean).join(', '),
    scenario: text?.scenario ?? bot.scenario,
    exampleMessages: bot.exampleMessages,
    systemPrompt: bot.systemPrompt,
    postHistoryInstructions: bot.postHistoryInstructions,
    lorebook: bot.characterBook,
  };
}

/** The memories the model named in its marker (label → id), only those its prompt held whole. */
function citedIds(run: Run): string[] {
  const held = new Set(run.memoryIds);
  return [...run.citations!.cited]
    .map((index) => run.labelledIds[index])
    .filter((id): id is string => id !== undefined && held.has(id));
}
