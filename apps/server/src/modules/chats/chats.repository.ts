/**
 * The `chats` table (a chat's own row: title, persona, model, memory, disclosure, activity).
 * Its messages are `messages.repository.ts`'s; what a send reads of the chat with its character
 * and user is the read model `chat-context.repository.ts`.
 */
import { and, desc, eq, inArray, isNotNull, isNull, ne, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { UNREAD_COUNT_CAP } from '@reverie/shared';
import { rowsOf, type Database } from '../../db/client.js';
import { findRow, insertRow, updateAny } from '../../db/rows.js';
import { chatPeople, chats, messages } from '../../db/schema.js';
import type { NewMessageRow } from './messages.repository.js';

export type ChatRow = typeof chats.$inferSelect;

/** The chat when it belongs to the user; anyone else's (or an unknown id) answers null. */
export async function findOwnedChat(db: Database, chatId: string, userId: string): Promise<ChatRow | null> {
  return findRow(db, chats, and(eq(chats.id, chatId), eq(chats.userId, userId)));
}

export async function findChatById(db: Database, chatId: string): Promise<ChatRow | null> {
  return findRow(db, chats, eq(chats.id, chatId));
}

/** The user's most recently active chat with a character. */
export async function findLatestChatWithBot(db: Database, userId: string, botId: string): Promise<ChatRow | null> {
  return findRow(db, chats, and(eq(chats.userId, userId), eq(chats.botId, botId)), desc(chats.updatedAt));
}

/** Creates a chat and its first messages (the greeting, the AI disclosure) in one transaction. */
export async function insertChat(
  db: Database,
  values: { userId: string; botId: string; disclosedAt: Date },
  firstMessages: (chatId: string) => NewMessageRow[],
): Promise<ChatRow> {
  return db.transaction(async (tx) => {
    const chat = await insertRow(tx, chats, values);
    const rows = firstMessages(chat.id);
    if (rows.length > 0) await tx.insert(messages).values(rows);
    return chat;
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
          // The chat and its branches (deleted with it): their own messages' files.
          sql`${messages.chatId} in (with recursive tree(id) as (
            select ${chatId}::uuid union all select c.id from chats c join tree t on c.parent_chat_id = t.id)
            select id from tree)`,
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
    Pick<
      ChatRow,
      | 'personaId'
      | 'modelId'
      | 'title'
      | 'memory'
      | 'memoryUpdatedAt'
      | 'memoryThroughSeq'
      | 'disclosedAt'
      | 'authorNote'
      | 'authorNoteDepth'
      | 'remember'
    >
  >,
): Promise<ChatRow> {
  const [row] = await db.update(chats).set(values).where(eq(chats.id, chatId)).returning();
  return row!;
}

/**
 * Which messages count as unread for `viewerId` (issue 31; docs/groups.md for a scene): a shown
 * message, finished, newer than what they read on any device (`readThrough`: the owner's
 * `chats.read_through_seq`, a member's `chat_people.read_through_seq`) — a character's, or
 * another person's in a scene — and never another person's private message.
 */
const unreadMessage = (viewerId: string, readThrough: SQL | AnyColumn) =>
  and(
    or(
      eq(messages.role, 'bot'),
      and(eq(messages.role, 'user'), isNotNull(messages.authorId), ne(messages.authorId, viewerId)),
    ),
    eq(messages.selected, true),
    sql`${messages.state} <> 'streaming'`,
    sql`${messages.seq} > ${readThrough}`,
    or(isNull(messages.privateTo), eq(messages.privateTo, viewerId)),
  );

/** A member's scenes (not removed), joined to their messages. */
const memberScene = (userId: string) => and(eq(chatPeople.userId, userId), isNull(chatPeople.removedAt));

/**
 * A chat's unread messages for `viewerId`, counted up to `UNREAD_COUNT_CAP` (a correlated
 * subquery on `messages_chat_idx`: it stops at the cap instead of counting a never-read chat to
 * its first message).
 */
const cappedUnread = (viewerId: string, outer: typeof chats | typeof chatPeople) => {
  // Named with their table: in a select list drizzle writes a column bare, which inside the
  // subquery would name the message's own column.
  const column = (name: string) => sql`${outer}.${sql.identifier(name)}`;
  const chatId = column(outer === chats ? chats.id.name : chatPeople.chatId.name);
  const readThrough = column(outer === chats ? chats.readThroughSeq.name : chatPeople.readThroughSeq.name);
  return sql<number>`(select count(*)::int from (select 1 from ${messages} where ${messages.chatId} = ${chatId} and ${unreadMessage(viewerId, readThrough)} limit ${UNREAD_COUNT_CAP}) as unread)`;
};

/**
 * Unread messages per chat of the user, their own and the scenes they joined, each up to
 * `UNREAD_COUNT_CAP` (chats with none are absent).
 */
export async function unreadCounts(db: Database, userId: string, chatIds: string[]): Promise<Map<string, number>> {
  if (chatIds.length === 0) return new Map();
  const [owned, joined] = await Promise.all([
    db
      .select({ chatId: chats.id, n: cappedUnread(userId, chats) })
      .from(chats)
      .where(and(eq(chats.userId, userId), inArray(chats.id, chatIds))),
    db
      .select({ chatId: chatPeople.chatId, n: cappedUnread(userId, chatPeople) })
      .from(chatPeople)
      .where(and(memberScene(userId), inArray(chatPeople.chatId, chatIds))),
  ]);
  return new Map([...owned, ...joined].filter((r) => Number(r.n) > 0).map((r) => [r.chatId, Number(r.n)]));
}

/**
 * Unread messages over all the user's chats and joined scenes (the Chats tab's and the app
 * icon's badge), up to `UNREAD_COUNT_CAP`.
 */
export async function unreadTotal(db: Database, userId: string): Promise<number> {
  // One statement (a send's completion reads it for the badge): both counts as subqueries,
  // each stopping at the cap.
  const owned = db
    .select({ one: sql`1` })
    .from(chats)
    .innerJoin(messages, eq(messages.chatId, chats.id))
    .where(and(eq(chats.userId, userId), unreadMessage(userId, chats.readThroughSeq)))
    .limit(UNREAD_COUNT_CAP);
  const joined = db
    .select({ one: sql`1` })
    .from(chatPeople)
    .innerJoin(messages, eq(messages.chatId, chatPeople.chatId))
    .where(and(memberScene(userId), unreadMessage(userId, chatPeople.readThroughSeq)))
    .limit(UNREAD_COUNT_CAP);
  const [row] = rowsOf<{ n: number | string }>(
    await db.execute(
      sql`select least(${UNREAD_COUNT_CAP}, (select count(*) from (${owned}) as o) + (select count(*) from (${joined}) as j))::int as n`,
    ),
  );
  return Number(row?.n ?? 0);
}

/**
 * A picture message of the user's chat that is still unread (the user has not looked at the
 * chat since it landed, on any device): its kind and the chat's character; null when it was
 * read, deleted, or is not a picture of that user's chat.
 */
export async function findUnreadPicture(
  db: Database,
  userId: string,
  chatId: string,
  messageId: string,
): Promise<{ kind: number; botId: string } | null> {
  const [row] = await db
    .select({ kind: messages.kind, botId: chats.botId })
    .from(messages)
    .innerJoin(chats, eq(chats.id, messages.chatId))
    .where(
      and(
        eq(messages.id, messageId),
        eq(messages.chatId, chatId),
        eq(chats.userId, userId),
        inArray(messages.kind, [2, 3]),
        unreadMessage(userId, chats.readThroughSeq),
      ),
    );
  return row ?? null;
}

/**
 * Marks the chat read through its newest message for the user: their own chat, or a scene they
 * are in (their own marker, docs/groups.md); false when it is neither.
 */
export async function markChatRead(db: Database, userId: string, chatId: string): Promise<boolean> {
  const newest = (seq: AnyColumn) =>
    sql`greatest(${seq}, coalesce((select max(${messages.seq}) from ${messages} where ${messages.chatId} = ${chatId}), 0))`;
  return (
    (await updateAny(db, chats, and(eq(chats.id, chatId), eq(chats.userId, userId)), {
      readThroughSeq: newest(chats.readThroughSeq),
    })) ||
    updateAny(db, chatPeople, and(eq(chatPeople.chatId, chatId), memberScene(userId)), {
      readThroughSeq: newest(chatPeople.readThroughSeq),
    })
  );
}

/**
 * Creates a chat from an imported file (docs/chat.md "Import") in one transaction: the chat,
 * then each batch of messages as the file is read (one insert a batch), then the chat's
 * activity time. Should the file turn out bad half way (`batches` throws), nothing is left.
 */
export async function insertImportedChat(
  db: Database,
  values: { userId: string; botId: string; disclosedAt: Date },
  batches: (chatId: string) => AsyncIterable<NewMessageRow[]>,
): Promise<{ chat: ChatRow; count: number }> {
  return db.transaction(async (tx) => {
    const chat = await insertRow(tx, chats, values);
    let count = 0;
    let last: Date | null = null;
    for await (const rows of batches(chat.id)) {
      if (rows.length === 0) continue;
      await tx.insert(messages).values(rows);
      count += rows.length;
      for (const row of rows) if (row.createdAt && (!last || row.createdAt > last)) last = row.createdAt;
    }
    const [updated] = await tx
      .update(chats)
      // The imported story is the user's own: read through its last message.
      .set({
        updatedAt: last ?? values.disclosedAt,
        readThroughSeq: sql`(select coalesce(max(${messages.seq}), 0) from ${messages} where ${messages.chatId} = ${chat.id})`,
      })
      .where(eq(chats.id, chat.id))
      .returning();
    return { chat: updated!, count };
  });
}
