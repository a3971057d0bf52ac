import type { Database } from '../../db/client.js';
import type { LlmProvider } from '../../providers/llm/llm.js';
import { findUserName, promptHistory } from './chat-context.repository.js';
import { findChatById, updateChat } from './chats.repository.js';
import { summarise } from './memory.js';
import type { SummaryRequest } from './runner.js';
import type { ServiceLog } from '../../lib/logger.js';

type Logger = Pick<ServiceLog, 'warn'>;

/** Where summaries run as jobs: `chat-summary` on the job queue (providers/jobs). */
export interface SummaryQueue {
  /** Queues one summary; one per chat at a time (the chat id is the key). */
  send(data: SummaryRequest, key: string): Promise<void>;
  /** Resolves when no summary is queued or running (tests). */
  idle(): Promise<void>;
}

export interface SummariesDeps {
  db: Database;
  llm: LlmProvider;
  log: Logger;
  /** The job queue the summaries run on (the app registers `run` as the `chat-summary` worker). */
  queue: SummaryQueue;
  /** The provider's idle timeout: a summary may take four times as long (at least a minute). */
  idleTimeoutMs: number;
  now?: () => Date;
}

const MEMORY_MAX_CHARS = 4000;
const SUMMARY_BATCH = 200;

/**
 * Memory summaries (docs/chat.md "Memory"): after a reply that left older messages out of the
 * prompt, those messages are folded into the chat's memory by the model, as a durable
 * `chat-summary` job — one at a time per chat, retried, run by any replica.
 */
export class MemorySummaries {
  /** Summaries being handed to the queue (so that `idle` finds them queued). */
  private readonly sending = new Set<Promise<void>>();

  constructor(private readonly deps: SummariesDeps) {}

  request(request: SummaryRequest): void {
    const sending = this.deps.queue
      .send(request, request.chatId)
      .catch((error: unknown) =>
        this.deps.log.warn({ err: error, chatId: request.chatId }, 'could not queue a memory summary'),
      )
      .finally(() => this.sending.delete(sending));
    this.sending.add(sending);
  }

  /** Folds the messages before `beforeSeq` that the memory does not cover into it. */
  async run(request: SummaryRequest, signal?: AbortSignal): Promise<void> {
    const { db } = this.deps;
    const chat = await findChatById(db, request.chatId);
    if (!chat) return;
    const rows = (
      await promptHistory(db, chat.id, {
        throughSeq: request.beforeSeq - 1,
        afterSeq: chat.memoryThroughSeq,
        limit: SUMMARY_BATCH,
      })
    ).filter((m) => m.role !== 'system' && m.text.trim());
    if (rows.length === 0) return;
    const timeout = AbortSignal.timeout(Math.max(this.deps.idleTimeoutMs * 4, 60_000));
    const memory = await summarise({
      llm: this.deps.llm,
      model: request.model,
      previousMemory: chat.memory,
      messages: rows.map((m) => ({ role: m.role, text: m.text })),
      characterName: request.characterName,
      userName: await findUserName(db, chat.userId),
      locale: request.locale,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      maxChars: MEMORY_MAX_CHARS,
    });
    await updateChat(db, chat.id, {
      memory,
      memoryUpdatedAt: this.deps.now?.() ?? new Date(),
      memoryThroughSeq: rows[rows.length - 1]!.seq,
    });
  }

  /** Waits for the summaries queued or running (tests). */
  async idle(): Promise<void> {
    while (this.sending.size > 0) await Promise.allSettled([...this.sending]);
    await this.deps.queue.idle();
  }
}
