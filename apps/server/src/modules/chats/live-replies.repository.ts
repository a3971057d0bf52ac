/**
 * Live replies across replicas (live-replies.ts): the owner and lease columns of `messages`
 * and the partial unique index that allows one live reply per chat.
 */
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { messages } from '../../db/schema.js';

/** `now() + ms` on the database's clock (replicas' clocks may differ). */
const leaseFromNow = (leaseMs: number) => sql`now() + ${leaseMs} * interval '1 millisecond'`;

/** The owner and lease a new live reply is written with. */
export const liveReplyValues = (owner: string, leaseMs: number) => ({
  owner,
  leaseUntil: leaseFromNow(leaseMs) as unknown as Date,
});

/** Extends the leases of every live reply of this replica (one statement, however many). */
export async function renewLeases(db: Database, owner: string, leaseMs: number): Promise<void> {
  await db
    .update(messages)
    .set({ leaseUntil: leaseFromNow(leaseMs) as unknown as Date })
    .where(and(eq(messages.owner, owner), eq(messages.state, 'streaming')));
}

/** The chat's live reply, if any, and whether its owner's lease still runs. */
export async function findLiveReply(
  db: Database,
  chatId: string,
): Promise<{ id: string; owner: string | null; alive: boolean } | null> {
  const [row] = await db
    .select({
      id: messages.id,
      owner: messages.owner,
      alive: sql<boolean>`coalesce(${messages.leaseUntil} > now(), false)`,
    })
    .from(messages)
    .where(and(eq(messages.chatId, chatId), eq(messages.state, 'streaming')));
  return row ?? null;
}

/** Whether the reply's owner's lease still runs (false once it ended or expired). */
export function leaseAlive(db: Database, messageId: string): Promise<boolean> {
  return db
    .select({ alive: sql<boolean>`${messages.leaseUntil} > now()` })
    .from(messages)
    .where(and(eq(messages.id, messageId), eq(messages.state, 'streaming')))
    .then((rows) => rows[0]?.alive === true);
}

/**
 * Ends live replies whose owner's lease ran out (the owner died): `failed` with `interrupted`,
 * their text as last saved. Limited to one chat or one reply when given; answers their ids.
 */
export async function failExpiredReplies(
  db: Database,
  scope: { chatId?: string; messageId?: string } = {},
  state: 'failed' | 'stopped' = 'failed',
): Promise<{ id: string; chatId: string }[]> {
  return db
    .update(messages)
    .set({
      state,
      errorCode: state === 'failed' ? 'interrupted' : null,
      owner: null,
      leaseUntil: null,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(messages.state, 'streaming'),
        // No lease at all: written by no live replica (a version before leases).
        or(isNull(messages.leaseUntil), lt(messages.leaseUntil, sql`now()`)),
        scope.chatId ? eq(messages.chatId, scope.chatId) : undefined,
        scope.messageId ? eq(messages.id, scope.messageId) : undefined,
      ),
    )
    .returning({ id: messages.id, chatId: messages.chatId });
}

/** Whether the chat has a live reply (a swipe waits for it). */
export async function hasLiveReply(db: Database, chatId: string): Promise<boolean> {
  return (await findLiveReply(db, chatId)) !== null;
}

/** The unique index that allows one live reply per chat (a second is a conflict, 409). */
export const LIVE_REPLY_INDEX = 'messages_live_idx';
