/**
 * The extraction job (docs/memory.md "Extraction"): after a user turn, one `memory-extract` job
 * per user and character (pg-boss singleton key, so two replicas never run it twice at once),
 * started a little later (debounced: the turns of a few minutes are read together). It reads
 * the new messages of the pair's remembered chats, asks the model for operations, and applies
 * them: adds (duplicates merged), corrections (a new revision), forgets. Never on the hot path.
 */
import type { Locale } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import type { ServiceLog } from '../../lib/logger.js';
import type { LlmProvider } from '../../providers/llm/llm.js';
import { LlmError } from '../../providers/llm/llm.js';
import * as repo from './memories.repository.js';
import type { ShownMemory } from './memories.repository.js';
import { extractionPrompt, MEMORY_OPS_JSON_SCHEMA, parseOps, type MemoryOp } from './extraction.js';
import { isUniqueViolation, memoryValues, revisionOf, type MemoriesService } from './memories.service.js';
import { checkMemory } from './safety.js';
import { dedupeKey, pairKey, scopedTerms, searchTerms } from './terms.js';
import type { ModerationProvider } from '../../providers/moderation/index.js';

export interface ExtractJob {
  userId: string;
  botId: string;
  characterName: string;
  userName: string;
  locale: Locale;
}

export interface ExtractorDeps {
  db: Database;
  llm: Pick<LlmProvider, 'generate' | 'models' | 'embed'>;
  log: Pick<ServiceLog, 'warn' | 'info'>;
  moderation: Pick<ModerationProvider, 'checkText' | 'name'> | null;
  service: Pick<MemoriesService, 'embedOne'>;
  /** Most messages read per run (the rest waits for the next run). */
  batch?: number;
  maxTokens?: number;
  now?: () => Date;
}

/** What one run did (tests, logs: counts only, never texts). */
export interface ExtractResult {
  read: number;
  added: number;
  merged: number;
  corrected: number;
  forgotten: number;
  refused: number;
}

const KNOWN_MAX = 30;

export class MemoryExtractor {
  constructor(private readonly deps: ExtractorDeps) {}

  async run(job: ExtractJob, signal?: AbortSignal): Promise<ExtractResult> {
    const { db } = this.deps;
    const result: ExtractResult = { read: 0, added: 0, merged: 0, corrected: 0, forgotten: 0, refused: 0 };
    const batch = this.deps.batch ?? 40;
    const chats = await repo.rememberedChats(db, job.userId, job.botId);
    const read: { chatId: string; messages: repo.ExtractionMessage[] }[] = [];
    let left = batch;
    for (const chat of chats) {
      if (left <= 0) break;
      const messages = await repo.messagesAfter(db, chat.chatId, chat.throughSeq, left);
      if (messages.length) read.push({ chatId: chat.chatId, messages });
      left -= messages.length;
    }
    const all = read.flatMap((r) => r.messages).filter((m) => m.role !== 'system' && m.text.trim());
    result.read = all.length;
    if (!all.some((m) => m.role === 'user')) {
      for (const r of read) await repo.advanceCursor(db, r.chatId, r.messages.at(-1)!.seq);
      return result;
    }
    const known = await this.knownMemories(job, all.map((m) => m.text).join('\n'));
    const answer = await this.ask(job, all, known, signal);
    const ops = parseOps(answer);
    if (ops === null)
      this.deps.log.warn({ userId: job.userId }, 'memory extraction: the model did not answer operations');
    else await this.apply(job, ops ?? [], all, known, result);
    // The messages read are done, whatever the model said: a bad answer is not asked again.
    for (const r of read) await repo.advanceCursor(db, r.chatId, r.messages.at(-1)!.seq);
    this.deps.log.info({ ...result, userId: job.userId }, 'memory extraction');
    return result;
  }

  /** The pair's memories the new messages may touch: pinned, then those sharing their terms. */
  private async knownMemories(job: ExtractJob, text: string): Promise<ShownMemory[]> {
    const { db } = this.deps;
    const key = pairKey(job.userId, job.botId);
    const [pinned, matches, recent] = await Promise.all([
      repo.pinnedMemories(db, job.userId, job.botId, 10),
      repo.searchCandidates(
        db,
        job.userId,
        job.botId,
        searchTerms(text).map((t) => `${key}:${t}`),
        { limit: KNOWN_MAX },
      ),
      repo.recentMemories(db, job.userId, job.botId, 10),
    ]);
    const seen = new Set<string>();
    const out: ShownMemory[] = [];
    for (const m of [...pinned, ...matches, ...recent]) {
      if (seen.has(m.id) || out.length >= KNOWN_MAX) continue;
      seen.add(m.id);
      out.push(m);
    }
    return out;
  }

  private async ask(
    job: ExtractJob,
    messages: repo.ExtractionMessage[],
    known: ShownMemory[],
    signal?: AbortSignal,
  ): Promise<string> {
    const { llm } = this.deps;
    const model = llm.models()[0]!;
    const turns = extractionPrompt({
      characterName: job.characterName,
      userName: job.userName,
      locale: job.locale,
      today: (this.deps.now?.() ?? new Date()).toISOString().slice(0, 10),
      messages: messages.map((m) => ({ role: m.role === 'user' ? 'user' : 'bot', text: m.text })),
      known: known.map((m) => ({ text: m.text, kind: m.kind, eventDate: m.eventDate })),
    });
    let text = '';
    try {
      for await (const piece of llm.generate({
        model: model.id,
        messages: turns,
        maxTokens: this.deps.maxTokens ?? 800,
        temperature: 0,
        signal: signal ?? new AbortController().signal,
        jsonSchema: { name: 'memory_operations', schema: MEMORY_OPS_JSON_SCHEMA },
      }))
        text += piece;
    } catch (error) {
      // A model that cannot answer now is retried by the job queue.
      if (error instanceof LlmError) throw error;
      throw error;
    }
    return text;
  }

  private async apply(
    job: ExtractJob,
    ops: MemoryOp[],
    messages: repo.ExtractionMessage[],
    known: ShownMemory[],
    result: ExtractResult,
  ): Promise<void> {
    const { db, moderation } = this.deps;
    const sourcesOf = (numbers: number[]) => [
      ...new Set(numbers.map((n) => messages[n - 1]?.id).filter((id): id is string => Boolean(id))),
    ];
    const forgotten = new Set<string>();
    for (const op of ops) {
      if (op.op === 'forget') {
        const target = known[op.memory - 1];
        if (!target || forgotten.has(target.id)) continue;
        forgotten.add(target.id);
        if (await repo.deleteOwnMemory(db, job.userId, target.id)) result.forgotten++;
        continue;
      }
      if (await checkMemory(op.text, op.subject, moderation)) {
        result.refused++;
        continue;
      }
      const sources = sourcesOf(op.sources);
      if (op.op === 'update') {
        const target = known[op.memory - 1];
        if (target && !forgotten.has(target.id)) {
          if (await this.correct(target, op, sources)) result.corrected++;
          continue;
        }
      }
      // An add, or an update of an unknown memory: a new memory, merged into a near duplicate.
      const twin = known.find((m) => !forgotten.has(m.id) && nearDuplicate(m.text, op.text));
      if (twin) {
        if (
          await this.correct(
            twin,
            { ...op, text: twin.text.length >= op.text.length ? twin.text : op.text },
            sources,
            'merged',
          )
        )
          result.merged++;
        continue;
      }
      const kind = op.op === 'add' ? op.kind : 'user';
      const values = memoryValues(job.userId, job.botId, {
        kind,
        text: op.text,
        eventDate: op.event_date,
        importance: op.importance,
        pinned: false,
        origin: 'model',
        sourceMessageIds: sources,
        embedding: await this.deps.service.embedOne(op.text),
      });
      const { row, created } = await db.transaction(async (tx) => {
        const t = tx as unknown as Database;
        const done = await repo.upsertMemory(t, values);
        await repo.insertRevision(t, revisionOf(done.row, done.created ? 'created' : 'merged', 'model'));
        return done;
      });
      if (created) {
        result.added++;
        known.push(row);
      } else result.merged++;
    }
  }

  /** A correction by the model: a new revision of `target` (the newer statement wins). */
  private async correct(
    target: ShownMemory,
    op: { text: string; importance: number; event_date: string | null },
    sources: string[],
    change: 'corrected' | 'merged' = 'corrected',
  ): Promise<boolean> {
    const { db } = this.deps;
    const text = op.text;
    try {
      await db.transaction(async (tx) => {
        const t = tx as unknown as Database;
        const row = await repo.updateMemory(t, target.id, {
          text,
          terms: scopedTerms(target.userId, target.botId, text),
          dedupeKey: dedupeKey(text) || text.slice(0, 300),
          importance: Math.max(target.importance, op.importance),
          eventDate: target.kind === 'event' ? (op.event_date ?? target.eventDate) : null,
          sourceMessageIds: [...new Set([...target.sourceMessageIds, ...sources])],
          ...(text === target.text ? {} : { vector: await this.deps.service.embedOne(text), embedding: null }),
        });
        if (row) {
          await repo.insertRevision(t, revisionOf(row, change, 'model'));
          Object.assign(target, row);
        }
      });
      return true;
    } catch (error) {
      // The corrected text is another memory's already: that one stays, this one goes.
      if (isUniqueViolation(error)) {
        await repo.deleteOwnMemory(db, target.userId, target.id);
        return true;
      }
      throw error;
    }
  }
}

/** Two statements of the same fact: one's terms nearly all in the other's (Jaccard ≥ 0.8). */
export function nearDuplicate(a: string, b: string): boolean {
  const ta = new Set(searchTerms(a));
  const tb = new Set(searchTerms(b));
  if (!ta.size || !tb.size) return dedupeKey(a) === dedupeKey(b);
  let both = 0;
  for (const t of ta) if (tb.has(t)) both++;
  return both / (ta.size + tb.size - both) >= 0.8;
}
