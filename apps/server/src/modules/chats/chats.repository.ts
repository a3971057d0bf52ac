/**
 * The `chats` table (a chat's own row: title, persona, model, memory, disclosure, activity).
 * Its messages are `messages.repository.ts`'s; what a send reads of the chat with its character
 * and user is the read model `chat-context.repository.ts`.
 */
import { and, desc, eq, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { chats, messages } from '../../db/schema.js';
import type { NewMessageRow } from './messages.repository.js';

export type ChatRow = typeof chats.$inferSelect;

/** The chat when it belongs to the user; anyone else's (or an unknown id) answers null. */
export async function findOwnedChat(db: Database, chatId: string, userId: string): Promise<ChatRow | null> {
  const [row] = await db
    .select()
    .from(chats)
    .where(and(eq(chats.id, chatId), eq(chats.userId, userId)));
  return row ?? null;
}

export async function findChatById(db: Database, chatId: string): Promise<ChatRow | null> {
  const [row] = await db.select().from(chats).where(eq(chats.id, chatId));
  return row ?? null;
}

/** The user's most recently active chat with a character. */
export async function findLatestChatWithBot(db: Database, userId: string, botId: string): Promise<ChatRow | null> {
  const [row] = await db
    .select()
    .from(chats)
    .where(and(eq(chats.userId, userId), eq(chats.botId, botId)))
    .orderBy(desc(chats.updatedAt))
    .limit(1);
  return row ?? null;
}

/** Creates a chat and its first messages (the greeting, the AI disclosure) in one transaction. */
export async function insertChat(
  db: Database,
  values: { userId: string; botId: string; disclosedAt: Date },
  firstMessages: (chatId: string) => NewMessageRow[],
): Promise<ChatRow> {
  return db.transaction(async (tx) => {
    const [chat] = await tx.insert(chats).values(values).returning();
    const rows = firstMessages(chat!.id);
    if (rows.length > 0) await tx.insert(messages).values(rows);
    return chat!;
  });
}

/**
 * Deletes the user's chat and its messages (they cascade) in one transaction; answers the
 * media keys its messages held (pictures, originals, voice files) so the caller can remove
 * the files, or null when the chat is not the user's.
 */
export async function deleteChat(
  db: Database,
  chatId: string,
  userId: string,
): Promise<{ mediaKey: string | null; originalKey: string | null; audioKey: string | null }[] | null> {
  return db.transaction(async (tx) => {
    const media = await tx
      .select({ mediaKey: messages.mediaKey, originalKey: messages.originalKey, audioKey: messages.audioKey })
      .from(messages)
      .where(
        and(
          eq(messages.chatId, chatId),
          eq(messages.userId, userId),
          or(
            sql`${messages.mediaKey} is not null`,
            sql`${messages.originalKey} is not null`,
            sql`${messages.audioKey} is not null`,
          ),
        ),
      );
    const deleted = await tx
      .delete(chats)
      .where(and(eq(chats.id, chatId), eq(chats.userId, userId)))
      .returning({ id: chats.id });
    return deleted.length > 0 ? media : null;
  });
}

export async function updateChat(
  db: Database,
  chatId: string,
  values: Partial<
    Pick<ChatRow, 'personaId' | 'modelId' | 'title' | 'memory' | 'memoryUpdatedAt' | 'memoryThroughSeq' | 'disclosedAt'>
  >,
): Promise<ChatRow> {
  const [row] = await db.update(chats).set(values).where(eq(chats.id, chatId)).returning();
  return row!;
}
