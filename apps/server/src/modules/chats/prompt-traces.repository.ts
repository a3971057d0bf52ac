/**
 * The SQL of `prompt_traces`: what went into each reply's prompt (docs/lorebooks.md). It is
 * written with the reply's final save (`saveReplies`, messages.repository.ts), in one statement.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { findRow } from '../../db/rows.js';
import { promptTraces } from '../../db/schema.js';
import { notDeletedIn, segmentsOf } from './branches.repository.js';

export type PromptTraceRow = typeof promptTraces.$inferSelect;

/**
 * The user's trace of a reply of the chat's history: the chat's own, or (a branch) one shared
 * from its ancestors up to the fork and not deleted here; null when there is none, it is not
 * theirs, or the reply is not in that chat's history.
 */
export async function findTrace(
  db: Database,
  userId: string,
  chatId: string,
  messageId: string,
): Promise<PromptTraceRow | null> {
  const theirs = and(eq(promptTraces.messageId, messageId), eq(promptTraces.userId, userId));
  const inHistory = sql`exists (select 1 from messages m join ${segmentsOf(chatId)} l on m.chat_id = l.c and m.seq <= l.s
    where m.id = ${messageId}::uuid and ${notDeletedIn(chatId)})`;
  return findRow(db, promptTraces, and(theirs, inHistory));
}
