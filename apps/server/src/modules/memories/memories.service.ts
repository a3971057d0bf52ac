import {
  MEMORIES_PER_CHARACTER_MAX,
  MEMORY_IMPORTANCE_DEFAULT,
  type JournalList,
  type Memory,
  type MemoryCreateBody,
  type MemoryHistory,
  type MemoryList,
  type MemoryListQuery,
  type MemoryUpdateBody,
} from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { AppError, notFound } from '../../lib/errors.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import type { ServiceLog } from '../../lib/logger.js';
import type { LlmProvider } from '../../providers/llm/llm.js';
import type { WindowLimiter } from '../../providers/limits/index.js';
import type { ModerationProvider } from '../../providers/moderation/index.js';
import type { BotsService } from '../bots/index.js';
import * as repo from './memories.repository.js';
import type { ShownMemory } from './memories.repository.js';
import { presentJournalEntry, presentMemory, presentRevision } from './memories.presenter.js';
import { drewOn, leastLineCost, lineCost, memoryLine, rankMemories, selectForPrompt } from './retrieval.js';
import { checkMemory, type MemorySubject } from './safety.js';
import { TurnsAhead, type MemoriesAhead } from './read-ahead.js';
import { dedupeKey, scopedTerms, searchTerms, pairKey } from './terms.js';

export interface MemoriesServiceDeps {
  db: Database;
  llm: Pick<LlmProvider, 'embed'>;
  log: Pick<ServiceLog, 'warn' | 'error' | 'info'>;
  bots: Pick<BotsService, 'findVisibleBotById' | 'findVisibleBotBySlug' | 'findBotById'>;
  moderation: Pick<ModerationProvider, 'checkText' | 'name'> | null;
  /** Writes per account (MEMORY_WRITES_PER_MINUTE). */
  writes: Pick<WindowLimiter, 'take'>;
  /**
   * The longest a prompt waits for its turns' embedding (MEMORY_EMBED_WAIT_MS, docs/memory.md
   * "Embeddings"); past it the prompt's memories are ranked without one.
   */
  embedWaitMs?: number;
  now?: () => Date;
}

/** What a prompt gets: the lines of its memory section and their memories' ids, in the same order. */
export interface PromptMemories {
  ids: string[];
  lines: string[];
}

/** The most memories one prompt holds, and the candidates read for it. */
export const PROMPT_MEMORIES_MAX = 12;
const PINNED_MAX = 8;
const CANDIDATES_MAX = 300;
const RECENT_FOR_EMBEDDINGS = 200;
/**
 * The candidates a prompt's statement returns when it ranks them by words (embeddings off):
 * enough for PROMPT_MEMORIES_MAX after PINNED_MAX pinned ones among them, and lines skipped for
 * the budget; a walk that needs more reads them all (`forPrompt`).
 */
const RANKED_TOP = 40;
const EMBED_WAIT_MS = 1500;

/**
 * The fewest terms with which the newest turn finds a prompt's candidates alone (`promptFinders`).
 */
export const NEWEST_FINDS_MIN_TERMS = 3;

/**
 * The terms that find a prompt's candidates (docs/memory.md "Retrieval"): the newest turn's —
 * what is being said now — when it has at least NEWEST_FINDS_MIN_TERMS ("What does my sister
 * do for a living?"); all the last turns' when it has fewer ("Tell me more", "And her job?":
 * a short turn leans on the ones before it). Every candidate is ranked by all the terms of the
 * last turns it holds, so the earlier turns still weigh: they order what the newest finds.
 * `query` is the last turns joined and cut as the search reads them, `key` the pair's.
 * Undefined: all the query's terms find.
 */
export function promptFinders(turns: string[], query: string, key: string): string[] | undefined {
  if (turns.length < 2) return undefined;
  const own = searchTerms(turns.at(-1)!.slice(-query.length));
  return own.length >= NEWEST_FINDS_MIN_TERMS ? own.map((t) => `${key}:${t}`) : undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A new memory's values, its search terms and dedupe key worked out. */
export function memoryValues(
  userId: string,
  botId: string,
  input: {
    kind: ShownMemory['kind'];
    text: string;
    eventDate: string | null;
    importance: number;
    pinned: boolean;
    origin: ShownMemory['origin'];
    sourceMessageIds: string[];
    embedding?: number[] | null;
  },
): repo.MemoryValues {
  return {
    userId,
    botId,
    kind: input.kind,
    text: input.text,
    eventDate: input.kind === 'event' ? input.eventDate : null,
    importance: input.importance,
    pinned: input.pinned,
    origin: input.origin,
    sourceMessageIds: input.sourceMessageIds,
    terms: scopedTerms(userId, botId, input.text),
    dedupeKey: dedupeKey(input.text) || input.text.slice(0, 300),
    vector: input.embedding ?? null,
    // The pre-0029 column is no longer written (a stale vector there would outlive a new text).
    embedding: null,
  };
}

/**
 * Memories per user and character (issue 28, docs/memory.md): the memory page's reads and
 * writes, the prompt's retrieval and each reply's citations.
 */
export class MemoriesService {
  constructor(private readonly deps: MemoriesServiceDeps) {}

  /** Each chat's last turns, for reading the next send's memories ahead (`read-ahead.ts`). */
  readonly ahead = new TurnsAhead();

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** The character of `ref` (id or slug) the user may see or has a chat or memories with; 404 otherwise. */
  async characterId(userId: string, ref: string): Promise<string> {
    const { bots, db } = this.deps;
    const byId = UUID.test(ref) ? await bots.findVisibleBotById(ref, userId).catch(() => null) : null;
    const bot = byId ?? (await bots.findVisibleBotBySlug(ref, userId).catch(() => null));
    if (bot) return bot.id;
    if (UUID.test(ref) && (await bots.findBotById(ref).catch(() => null)) && (await repo.hasPairData(db, userId, ref)))
      return ref;
    throw notFound();
  }

  private async ownMemory(userId: string, id: string): Promise<ShownMemory> {
    if (!UUID.test(id)) throw notFound();
    const row = await repo.findOwnMemory(this.deps.db, userId, id);
    if (!row) throw notFound();
    return row;
  }

  private async takeWrite(userId: string): Promise<void> {
    const wait = await this.deps.writes.take(userId);
    if (wait > 0) throw new AppError('rate_limited', { status: 429, headers: { 'retry-after': String(wait) } });
  }

  async list(userId: string, ref: string, query: MemoryListQuery): Promise<MemoryList> {
    const botId = await this.characterId(userId, ref);
    const { db } = this.deps;
    if (query.q) {
      const terms = searchTerms(query.q);
      const key = pairKey(userId, botId);
      const candidates = await repo.searchCandidates(
        db,
        userId,
        botId,
        terms.map((t) => `${key}:${t}`),
        { limit: CANDIDATES_MAX, kind: query.kind },
      );
      const filtered = query.pinned === undefined ? candidates : candidates.filter((c) => c.pinned === query.pinned);
      const ranked = rankMemories({ pinned: [], candidates: filtered, total: filtered.length * 4, now: this.now() });
      return {
        results: ranked.slice(0, query.size).map((r) => presentMemory(r.memory)),
        next_param: null,
        counts: null,
      };
    }
    const after = decodeCursor(query.c, ['int', 'iso', 'uuid'] as const);
    const filter = { kind: query.kind, pinned: query.pinned };
    const [rows, counts] = await Promise.all([
      repo.listMemories(db, userId, botId, {
        ...filter,
        size: query.size + 1,
        after: after ? { pinned: after[0] === 1, updatedAt: after[1], id: after[2] } : undefined,
      }),
      after ? null : repo.countMemoriesByKind(db, userId, botId, filter),
    ]);
    const page = rows.slice(0, query.size);
    const last = page.at(-1);
    return {
      results: page.map(presentMemory),
      next_param:
        rows.length > query.size && last
          ? encodeCursor([last.pinned ? 1 : 0, last.updatedAt.toISOString(), last.id])
          : null,
      counts,
    };
  }

  async get(userId: string, id: string): Promise<Memory> {
    return presentMemory(await this.ownMemory(userId, id));
  }

  /**
   * A memory written by hand: the content policy applies to it too (422 `memory_refused`).
   * `created` false: the pair already had it (the same text once normalised), and it was merged there.
   */
  async create(userId: string, ref: string, body: MemoryCreateBody): Promise<{ memory: Memory; created: boolean }> {
    const botId = await this.characterId(userId, ref);
    await this.takeWrite(userId);
    await this.refuseUnsafe(body.text, 'user');
    const { db } = this.deps;
    if ((await repo.countPairMemories(db, userId, botId)) >= MEMORIES_PER_CHARACTER_MAX)
      throw new AppError('memory_full', { status: 409 });
    const values = memoryValues(userId, botId, {
      kind: body.kind,
      text: body.text,
      eventDate: body.event_date ?? null,
      importance: body.importance ?? MEMORY_IMPORTANCE_DEFAULT,
      pinned: body.pinned ?? false,
      origin: 'user',
      sourceMessageIds: [],
      embedding: await this.embedOne(body.text),
    });
    const row = await db.transaction(async (tx) => {
      const t = tx as unknown as Database;
      const done = await repo.upsertMemory(t, values);
      await repo.insertRevision(t, revisionOf(done.row, done.created ? 'created' : 'merged', 'user'));
      return done;
    });
    return { memory: presentMemory(row.row), created: row.created };
  }

  /** A correction by the user: a new revision; the previous ones stay in its history. */
  async update(userId: string, id: string, body: MemoryUpdateBody): Promise<Memory> {
    const current = await this.ownMemory(userId, id);
    await this.takeWrite(userId);
    const text = body.text ?? current.text;
    if (body.text !== undefined) await this.refuseUnsafe(text, 'user');
    const kind = body.kind ?? current.kind;
    const changed =
      text !== current.text ||
      kind !== current.kind ||
      (body.event_date !== undefined && body.event_date !== current.eventDate) ||
      (body.importance !== undefined && body.importance !== current.importance);
    const pinChanged = body.pinned !== undefined && body.pinned !== current.pinned;
    if (!changed && !pinChanged) return presentMemory(current);
    const values: Partial<repo.MemoryValues> = {
      kind,
      text,
      eventDate: kind === 'event' ? (body.event_date !== undefined ? body.event_date : current.eventDate) : null,
      importance: body.importance ?? current.importance,
      pinned: body.pinned ?? current.pinned,
    };
    if (text !== current.text) {
      values.terms = scopedTerms(userId, current.botId, text);
      values.dedupeKey = dedupeKey(text) || text.slice(0, 300);
      values.vector = await this.embedOne(text);
      values.embedding = null;
    }
    const row = await this.deps.db
      .transaction(async (tx) => {
        const t = tx as unknown as Database;
        // A pin alone changes no content: the memory keeps its date and its recency in prompts.
        const row = await repo.updateMemory(t, current.id, changed ? values : { pinned: values.pinned }, changed);
        if (!row) throw notFound();
        const change = changed ? 'corrected' : row.pinned ? 'pinned' : 'unpinned';
        await repo.insertRevision(t, revisionOf(row, change, 'user'));
        return row;
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error))
          // No detail of its own: the code's text, in the user's language (errors.memory_duplicate).
          throw new AppError('memory_duplicate', { status: 409 });
        throw error;
      });
    return presentMemory(row);
  }

  /** Forgets one memory: gone with its history and citations, never in a later prompt. */
  async forget(userId: string, id: string): Promise<void> {
    await this.ownMemory(userId, id);
    await this.takeWrite(userId);
    if (!(await repo.deleteOwnMemory(this.deps.db, userId, id))) throw notFound();
  }

  /** Forgets everything the character remembers about the user. */
  async forgetAll(userId: string, ref: string): Promise<{ deleted: number }> {
    const botId = await this.characterId(userId, ref);
    await this.takeWrite(userId);
    return { deleted: await repo.deletePairMemories(this.deps.db, userId, botId) };
  }

  async history(userId: string, id: string): Promise<MemoryHistory> {
    const memory = await this.ownMemory(userId, id);
    return { results: (await repo.listRevisions(this.deps.db, memory.id)).map(presentRevision) };
  }

  async journal(userId: string, ref: string, size: number, cursor?: string): Promise<JournalList> {
    const botId = await this.characterId(userId, ref);
    const { db } = this.deps;
    const before = decodeCursor(cursor, ['slug'] as const)?.[0];
    if (before !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(before))
      throw new AppError('invalid_cursor', { status: 400 });
    const [enabled, rows] = await Promise.all([
      repo.journalEnabled(db, userId, botId),
      repo.listJournal(db, userId, botId, size + 1, before),
    ]);
    const page = rows.slice(0, size);
    return {
      enabled,
      results: page.map(presentJournalEntry),
      next_param: rows.length > size && page.length ? encodeCursor([page.at(-1)!.day]) : null,
    };
  }

  async setJournal(userId: string, ref: string, enabled: boolean): Promise<{ enabled: boolean }> {
    const botId = await this.characterId(userId, ref);
    await this.takeWrite(userId);
    await repo.setJournal(this.deps.db, userId, botId, enabled);
    return { enabled };
  }

  // The prompt and citations ------------------------------------------------------------

  /**
   * The memories of a reply's prompt: pinned ones, then the most relevant to `turns` (the last
   * turns, newest last), within `budgetTokens`.
   */
  async forPrompt(input: {
    userId: string;
    botId: string;
    turns: string[];
    budgetTokens: number;
    /** The chat of a reply: its turns are noted for reading its next send's memories ahead. */
    chatId?: string;
    signal?: AbortSignal;
  }): Promise<PromptMemories> {
    const { db, llm } = this.deps;
    const { userId, botId } = input;
    if (input.budgetTokens < 8) return { ids: [], lines: [] };
    if (input.chatId && input.turns.length)
      this.ahead.asked(input.chatId, userId, botId, input.budgetTokens, input.turns.at(-1)!);
    const query = input.turns.join('\n').slice(-2000);
    const key = pairKey(userId, botId);
    const terms = searchTerms(query).map((t) => `${key}:${t}`);
    const finders = promptFinders(input.turns, query, key);
    const embed = llm.embed;
    if (!embed) {
      // Ranked by words in the statement: the best RANKED_TOP candidates, ranked here exactly as
      // all of them would be. The walk within the budget reads the rest only when it went
      // through these short of the count with room left for the shortest candidate's line (a
      // bound of the shortest of the rest).
      const now = this.now();
      const got = await repo.promptCandidatesByWords(db, userId, botId, terms, {
        pinned: PINNED_MAX,
        limit: CANDIDATES_MAX,
        top: RANKED_TOP,
        now,
        finders,
      });
      const ranked = rankMemories({
        pinned: got.pinned,
        candidates: [],
        counted: got.ranked,
        total: Math.max(got.count * 4, 50),
        now,
      });
      const chosen = selectForPrompt(got.pinned, ranked, input.budgetTokens, PROMPT_MEMORIES_MAX);
      const left = input.budgetTokens - chosen.reduce((sum, m) => sum + lineCost(m), 0);
      const restNeeded =
        chosen.length < PROMPT_MEMORIES_MAX && got.restChars !== null && left >= leastLineCost(got.restChars);
      if (!restNeeded) return { ids: chosen.map((m) => m.id), lines: chosen.map(memoryLine) };
    }
    // The statement and the turns' embedding at once; the newest memories (the semantic
    // candidates that share no term) come in the same statement when embeddings are on.
    const [{ pinned, candidates, recent }, queryEmbedding] = await Promise.all([
      repo.promptCandidates(db, userId, botId, terms, {
        pinned: PINNED_MAX,
        limit: CANDIDATES_MAX,
        withEmbedding: Boolean(embed),
        recent: embed ? RECENT_FOR_EMBEDDINGS : 0,
        finders,
      }),
      embed && query.trim() ? this.queryEmbedding(embed, query, input.signal) : null,
    ]);
    const ranked = rankMemories({
      pinned,
      candidates,
      recent: queryEmbedding ? recent : [],
      queryEmbedding,
      total: Math.max(candidates.length * 4, 50),
      now: this.now(),
    });
    const chosen = selectForPrompt(pinned, ranked, input.budgetTokens, PROMPT_MEMORIES_MAX);
    return { ids: chosen.map((m) => m.id), lines: chosen.map(memoryLine) };
  }

  /**
   * A send's memories read ahead, while its chat and history are read (`read-ahead.ts`): the
   * chat's noted last turns and the send's `text`; null when none are noted (then nothing is
   * read: a chat whose pair has no memories is never noted).
   */
  readAhead(chatId: string, userId: string, text: string): MemoriesAhead | null {
    const next = this.ahead.next(chatId, userId, text);
    if (!next) return null;
    const result = this.forPrompt({
      userId,
      botId: next.botId,
      chatId,
      turns: next.turns,
      budgetTokens: next.budgetTokens,
    });
    result.catch(() => undefined); // the runner awaits it, or drops it
    return { ...next, result };
  }

  /**
   * The turns' embedding, or null when the endpoint fails or takes longer than `embedWaitMs`
   * (the request is then given up: a slow embeddings endpoint never holds a reply back long).
   */
  private queryEmbedding(
    embed: NonNullable<LlmProvider['embed']>,
    query: string,
    signal?: AbortSignal,
  ): Promise<number[] | null> {
    const waited = AbortSignal.timeout(this.deps.embedWaitMs ?? EMBED_WAIT_MS);
    return embed([query], signal ? AbortSignal.any([signal, waited]) : waited).then(
      (v) => v[0] ?? null,
      () => null,
    );
  }

  /**
   * Stores a reply's citations: the memories of its prompt, and which of them it drew on — the
   * ones the model named, or else those whose terms the reply shares (docs/memory.md "Citations").
   */
  async recordCitations(
    messageId: string,
    userId: string,
    botId: string,
    memoryIds: string[],
    reply: string,
    /** The memories the model named (MEMORY_CITATIONS=model); absent: by overlap. */
    cited?: string[],
  ): Promise<void> {
    if (!memoryIds.length) return;
    const named = cited ? new Set(cited) : null;
    const rows = await repo.findPairMemories(this.deps.db, userId, botId, memoryIds);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const items = memoryIds
      .map((id, position) => ({ id, position, row: byId.get(id) }))
      .filter((i) => i.row)
      .map((i) => ({
        memoryId: i.id,
        position: i.position,
        drewOn: named ? named.has(i.id) : drewOn(i.row!.text, reply),
      }));
    await repo.insertCitations(this.deps.db, messageId, items);
  }

  citations(messageIds: string[], viewerId: string) {
    return repo.citationsOf(this.deps.db, messageIds, viewerId);
  }

  // Helpers -------------------------------------------------------------------------------

  async refuseUnsafe(text: string, subject: MemorySubject): Promise<void> {
    const refusal = await checkMemory(text, subject, this.deps.moderation);
    if (refusal) throw new AppError('memory_refused', { status: 422, errors: { text: ['memory_refused'] } });
  }

  async embedOne(text: string): Promise<number[] | null> {
    const embed = this.deps.llm.embed;
    if (!embed) return null;
    try {
      return (await embed([text]))[0] ?? null;
    } catch (error) {
      this.deps.log.warn({ err: error }, 'could not embed a memory');
      return null;
    }
  }
}

export function revisionOf(
  row: ShownMemory,
  change: 'created' | 'corrected' | 'merged' | 'pinned' | 'unpinned',
  origin: ShownMemory['origin'],
) {
  return {
    memoryId: row.id,
    change,
    origin,
    kind: row.kind,
    text: row.text,
    eventDate: row.eventDate,
    importance: row.importance,
    pinned: row.pinned,
    sourceMessageIds: row.sourceMessageIds,
  };
}

export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}
