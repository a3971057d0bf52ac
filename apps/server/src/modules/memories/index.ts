import { MEMORY_WRITES_PER_MINUTE, type Locale } from '@reverie/shared';
import type { Core } from '../../core.js';
import { defineModule } from '../../lib/module.js';
import { WindowLimiter } from '../../providers/limits/index.js';
import type { BotsService } from '../bots/index.js';
import { MemoryExtractor, type ExtractJob } from './extractor.js';
import { JournalWriter, type JournalJob } from './journal.js';
import * as repo from './memories.repository.js';
import { memoriesRoutes } from './memories.routes.js';
import { MemoriesService, memoryValues, revisionOf, type PromptMemories } from './memories.service.js';
import type { Database } from '../../db/client.js';
import type { MemoriesAhead } from './read-ahead.js';

export type MemoriesModuleDeps = Pick<Core, 'config' | 'db' | 'log' | 'llm' | 'jobs' | 'limits' | 'moderation'> & {
  bots: BotsService;
};

/** What a finished reply tells the memories module. */
export interface ReplyMemories {
  messageId: string;
  chatId: string;
  userId: string;
  botId: string;
  /** The memory ids its prompt held (prompt order). */
  memoryIds: string[];
  /** The reply's text ('' when it failed). */
  reply: string;
  /**
   * The memories the model said it drew on (MEMORY_CITATIONS=model: its trailing marker);
   * absent: found by overlap of the memory's terms with the reply.
   */
  cited?: string[];
  characterName: string;
  userName: string;
  locale: Locale;
}

/** What other modules may ask of the memories module (the chats module's prompt, citations, history). */
export interface MemoriesApi {
  /** The memories of a reply's prompt: pinned, then the most relevant to `turns`, within `budgetTokens`. */
  forPrompt(input: {
    userId: string;
    botId: string;
    turns: string[];
    budgetTokens: number;
    /** The chat of a reply (its turns are noted for reading its next send's memories ahead). */
    chatId?: string;
  }): Promise<PromptMemories>;
  /**
   * A send's memories read ahead while its chat is read (docs/memory.md "Retrieval"); null when
   * the chat's last turns are not known here. The runner checks the turns before using it.
   */
  readAhead(input: { chatId: string; userId: string; text: string }): MemoriesAhead | null;
  /** After a reply: stores its citations and queues the extraction of the pair's new messages. */
  replied(input: ReplyMemories): Promise<void>;
  /** The citations of these messages that are the viewer's own memories (history). */
  citations(messageIds: string[], viewerId: string): Promise<Map<string, { inPrompt: string[]; drewOn: string[] }>>;
  /** Messages deleted for good (a chat's "delete"): the user's memories drawn from them lose those sources. */
  messagesDeleted(event: { userId: string; messageIds: string[] }): Promise<void>;
  /** Waits for the extraction jobs queued so far (tests; journal jobs start after their day). */
  idle(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    memories: MemoriesApi;
  }
}

export const EXTRACT_QUEUE = 'memory-extract';
export const JOURNAL_QUEUE = 'memory-journal';
export const SUMMARY_IMPORT_QUEUE = 'memory-summary-import';

/**
 * The memories module (docs/memory.md): memories per user and character, their page's API, the
 * extraction and journal jobs, the prompt's retrieval and each reply's citations.
 */
export const memoriesModule = defineModule<MemoriesModuleDeps>('memories', async (app, deps) => {
  const { config, db, llm, log, jobs } = deps;
  const service = new MemoriesService({
    db,
    llm,
    log,
    bots: deps.bots,
    moderation: deps.moderation,
    writes: new WindowLimiter(deps.limits, 'memory-writes', MEMORY_WRITES_PER_MINUTE, 60_000),
    embedWaitMs: config.MEMORY_EMBED_WAIT_MS,
  });
  const extractor = new MemoryExtractor({ db, llm, log, moderation: deps.moderation, service });
  const journal = new JournalWriter({ db, llm, log });
  const expire = Math.max(config.LLM_TIMEOUT_S * 4, 60) + 60;
  jobs.work<ExtractJob>(
    EXTRACT_QUEUE,
    async (job, signal) => {
      await extractor.run(job, signal);
    },
    { concurrency: 1, retryLimit: 2, retryDelaySeconds: 30, retryBackoff: true, expireInSeconds: expire },
  );
  jobs.work<JournalJob>(
    JOURNAL_QUEUE,
    async (job, signal) => {
      await journal.run(job, signal);
    },
    { concurrency: 1, retryLimit: 2, retryDelaySeconds: 60, retryBackoff: true, expireInSeconds: expire },
  );
  jobs.work<{ round: number }>(SUMMARY_IMPORT_QUEUE, async () => void (await importSummaries(db)), {
    concurrency: 1,
    retryLimit: 3,
    retryDelaySeconds: 30,
  });
  // The chat summaries written before memories existed become memories once (any replica, once).
  app.addHook('onReady', async () => {
    // Not awaited: the app is ready without it (the job is durable once queued).
    void jobs.send(SUMMARY_IMPORT_QUEUE, { round: 1 }, { singletonKey: 'import' }).catch((error: unknown) => {
      log.warn({ err: error }, 'could not queue the import of chat summaries into memories');
    });
  });

  const api: MemoriesApi = {
    forPrompt: (input) => service.forPrompt(input),
    readAhead: (input) => service.readAhead(input.chatId, input.userId, input.text),
    replied: async (input) => {
      service.ahead.replied(input.chatId, input.reply);
      if (input.reply && input.memoryIds.length)
        await service.recordCitations(
          input.messageId,
          input.userId,
          input.botId,
          input.memoryIds,
          input.reply,
          input.cited,
        );
      const followUp = await repo.replyFollowUp(db, input.chatId, input);
      if (!followUp?.remember) return;
      const key = `${input.userId}:${input.botId}`;
      const base = {
        userId: input.userId,
        botId: input.botId,
        characterName: input.characterName,
        userName: input.userName,
        locale: input.locale,
      };
      await jobs.send(EXTRACT_QUEUE, base, { singletonKey: key, startAfterSeconds: config.MEMORY_EXTRACT_DELAY_S });
      if (followUp.journal) {
        const now = new Date();
        const day = now.toISOString().slice(0, 10);
        const nextMidnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 0, 10);
        await jobs.send(JOURNAL_QUEUE, { ...base, day } satisfies JournalJob, {
          singletonKey: `${key}:${day}`,
          startAfterSeconds: Math.ceil((nextMidnight - now.getTime()) / 1000),
        });
      }
    },
    citations: (ids, viewerId) => service.citations(ids, viewerId),
    messagesDeleted: async ({ userId, messageIds }) => void (await repo.dropMessageSources(db, userId, messageIds)),
    // Journal jobs wait for their day to end: not waited for.
    idle: () => jobs.idle([EXTRACT_QUEUE, SUMMARY_IMPORT_QUEUE]),
  };
  app.decorate('memories', api);
  await app.register(memoriesRoutes, { service });
});

/**
 * Copies each chat's summary (the short-term layer, which stays) into memories once: one
 * memory per paragraph or line (at most 500 characters), kind `story`, origin `summary`.
 */
export async function importSummaries(db: Database, batch = 200): Promise<number> {
  let imported = 0;
  for (;;) {
    const chats = await repo.summariesToImport(db, batch);
    if (!chats.length) return imported;
    for (const chat of chats) {
      const parts = chat.memory
        .split(/\n+/)
        .map((p) => p.replace(/^[\s*•-]+/, '').trim())
        .filter((p) => p.length >= 3)
        .flatMap((p) =>
          p.length <= 500 ? [p] : (p.match(/[^.!?。！？]+[.!?。！？]*/gu) ?? [p]).map((s) => s.trim().slice(0, 500)),
        )
        .filter(Boolean)
        .slice(0, 60);
      await db.transaction(async (tx) => {
        const t = tx as unknown as Database;
        for (const text of parts) {
          const { row, created } = await repo.upsertMemory(
            t,
            memoryValues(chat.userId, chat.botId, {
              kind: 'story',
              text,
              eventDate: null,
              importance: 2,
              pinned: false,
              origin: 'summary',
              sourceMessageIds: [],
            }),
          );
          if (created) {
            await repo.insertRevision(t, revisionOf(row, 'created', 'summary'));
            imported++;
          }
        }
        await repo.markSummaryImported(t, chat.chatId);
      });
    }
  }
}

// The public API.
export type { PromptMemories } from './memories.service.js';
export { aheadFits, type MemoriesAhead } from './read-ahead.js';
/** Delete all data (modules/accounts/user-data.ts): the user's memories, settings and journal. */
export const deleteUserMemories = repo.deleteUserMemories;
/** Citations asked of the model (MEMORY_CITATIONS=model): the labels, the instruction, the marker's stripping. */
export { CITATION_INSTRUCTION, CitationStream, labelledLine, stripCitations } from './citations.js';
/** Citations by overlap (the default): whether a reply drew on a memory's text. */
export { drewOn } from './retrieval.js';
/** Download my data: the user's memories with their revisions, and journal entries. */
export const exportUserMemories = repo.exportUserMemories;
