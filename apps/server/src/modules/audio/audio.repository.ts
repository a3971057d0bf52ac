import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { bots, chats, messages } from '../../db/schema.js';

/** The user's message with what a voice message needs: its text, state and the character's voice. */
export async function findOwnedMessageForAudio(db: Database, messageId: string, userId: string) {
  const [row] = await db
    .select({
      id: messages.id,
      userId: messages.userId,
      role: messages.role,
      kind: messages.kind,
      state: messages.state,
      text: messages.text,
      audioState: messages.audioState,
      audioKey: messages.audioKey,
      updatedAt: messages.updatedAt,
      voice: bots.voice,
    })
    .from(messages)
    .innerJoin(chats, eq(chats.id, messages.chatId))
    .innerJoin(bots, eq(bots.id, chats.botId))
    .where(and(eq(messages.id, messageId), eq(messages.userId, userId)));
  return row ?? null;
}

/**
 * Marks the message `processing` when no voice job owns it: never asked, or a job that
 * stopped reporting before `staleBefore` (a crashed process). True when this call claimed it.
 */
export async function claimAudioJob(db: Database, messageId: string, userId: string, staleBefore: Date) {
  const rows = await db
    .update(messages)
    .set({ audioState: 'processing', audioKey: null, updatedAt: sql`now()` })
    .where(
      and(
        eq(messages.id, messageId),
        eq(messages.userId, userId),
        or(
          isNull(messages.audioState),
          and(eq(messages.audioState, 'processing'), lt(messages.updatedAt, staleBefore)),
        ),
      ),
    )
    .returning({ id: messages.id });
  return rows.length === 1;
}

/** Reports a failed job once: `error` becomes "not asked", so the next request tries again. True when it was `error`. */
export async function takeAudioError(db: Database, messageId: string, userId: string) {
  const rows = await db
    .update(messages)
    .set({ audioState: null })
    .where(and(eq(messages.id, messageId), eq(messages.userId, userId), eq(messages.audioState, 'error')))
    .returning({ id: messages.id });
  return rows.length === 1;
}

/** The job's result; only while the message is still `processing` (false: the row is gone or was reset). */
export async function finishAudioJob(
  db: Database,
  messageId: string,
  result: { state: 'ready'; key: string } | { state: 'error' },
) {
  const rows = await db
    .update(messages)
    .set({ audioState: result.state, audioKey: result.state === 'ready' ? result.key : null, updatedAt: sql`now()` })
    .where(and(eq(messages.id, messageId), eq(messages.audioState, 'processing')))
    .returning({ id: messages.id });
  return rows.length === 1;
}

/** A claim whose job could not be queued: back to "not asked". */
export async function releaseAudioJob(db: Database, messageId: string) {
  await db
    .update(messages)
    .set({ audioState: null })
    .where(and(eq(messages.id, messageId), eq(messages.audioState, 'processing')));
}
