import { and, asc, count, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { deleteRows } from '../../db/rows.js';
import { botPictures, bots, chats, messages, takedownRequests, users } from '../../db/schema.js';

export type TakedownRow = typeof takedownRequests.$inferSelect;
export type TakedownStatus = TakedownRow['status'];

/** Requests in one status (or all), oldest or newest first. */
export async function listTakedowns(
  db: Database,
  options: { status: TakedownStatus | 'all'; order: 'newest' | 'oldest'; limit: number },
): Promise<TakedownRow[]> {
  return db
    .select()
    .from(takedownRequests)
    .where(options.status === 'all' ? undefined : eq(takedownRequests.status, options.status))
    .orderBy(options.order === 'newest' ? desc(takedownRequests.createdAt) : asc(takedownRequests.createdAt))
    .limit(options.limit);
}

/** Open requests, and those of them older than `overdueBefore`. */
export async function countOpenTakedowns(
  db: Database,
  overdueBefore: Date,
): Promise<{ open: number; overdue: number }> {
  const [row] = await db
    .select({
      open: count(),
      overdue: sql<number>`count(*) filter (where ${takedownRequests.createdAt} < ${overdueBefore.toISOString()}::timestamptz)`,
    })
    .from(takedownRequests)
    .where(eq(takedownRequests.status, 'open'));
  return { open: Number(row?.open ?? 0), overdue: Number(row?.overdue ?? 0) };
}

export async function findTakedown(db: Database, id: string): Promise<TakedownRow | null> {
  const [row] = await db.select().from(takedownRequests).where(eq(takedownRequests.id, id));
  return row ?? null;
}

/** The request, locked until the transaction ends (one removal or rejection at a time). */
export async function lockTakedown(db: Database, id: string): Promise<TakedownRow | null> {
  const [row] = await db.select().from(takedownRequests).where(eq(takedownRequests.id, id)).for('update');
  return row ?? null;
}

/**
 * Reads of a removal's plan take `{ lock: true }` inside its transaction: the rows it will
 * delete or change are locked until the commit, so nothing can be added to them (a message in a
 * character's chat, a new chat, a gallery picture) between the plan and the deletion and be left
 * with its files gone. The console's read-only views read without locks.
 */
export interface ReadOptions {
  lock?: boolean;
}

/** Closes an open request (null when it was not open any more: someone else handled it). */
export async function closeTakedown(
  db: Database,
  id: string,
  values: {
    status: 'removed' | 'rejected';
    resolution: string | null;
    removed: Record<string, unknown> | null;
    handledBy: string;
  },
): Promise<TakedownRow | null> {
  const [row] = await db
    .update(takedownRequests)
    .set({ ...values, handledAt: new Date() })
    .where(and(eq(takedownRequests.id, id), eq(takedownRequests.status, 'open')))
    .returning();
  return row ?? null;
}

/** What the removal found files to delete for, after the request is closed. */
export async function setTakedownRemoved(db: Database, id: string, removed: Record<string, unknown>): Promise<void> {
  await db.update(takedownRequests).set({ removed }).where(eq(takedownRequests.id, id));
}

export type CharacterRow = Pick<
  typeof bots.$inferSelect,
  'id' | 'slug' | 'name' | 'description' | 'avatarKey' | 'authorId' | 'visibility'
> & { authorEmail: string | null };

const characterColumns = {
  id: bots.id,
  slug: bots.slug,
  name: bots.name,
  description: bots.description,
  avatarKey: bots.avatarKey,
  authorId: bots.authorId,
  visibility: bots.visibility,
  authorEmail: users.email,
};

export async function findCharacterBySlug(
  db: Database,
  slug: string,
  options: ReadOptions = {},
): Promise<CharacterRow | null> {
  const query = db
    .select(characterColumns)
    .from(bots)
    .leftJoin(users, eq(users.id, bots.authorId))
    .where(eq(bots.slug, slug))
    .limit(1);
  const [row] = options.lock ? await query.for('update', { of: bots }) : await query;
  return row ?? null;
}

export async function findCharacterPictures(db: Database, botId: string, options: ReadOptions = {}): Promise<string[]> {
  const query = db
    .select({ key: botPictures.mediaKey })
    .from(botPictures)
    .where(eq(botPictures.botId, botId))
    .orderBy(asc(botPictures.position));
  const rows = options.lock ? await query.for('update') : await query;
  return rows.map((r) => r.key);
}

/** The characters whose avatar or gallery holds the file. */
export async function findCharactersWithMedia(
  db: Database,
  key: string,
  options: ReadOptions = {},
): Promise<{ id: string; avatar: boolean; pictureIds: string[] }[]> {
  const avatarQuery = db.select({ id: bots.id }).from(bots).where(eq(bots.avatarKey, key));
  const avatars = options.lock ? await avatarQuery.for('update') : await avatarQuery;
  const pictureQuery = db
    .select({ id: botPictures.id, botId: botPictures.botId })
    .from(botPictures)
    .where(eq(botPictures.mediaKey, key));
  const pictures = options.lock ? await pictureQuery.for('update') : await pictureQuery;
  const byBot = new Map<string, { id: string; avatar: boolean; pictureIds: string[] }>();
  for (const a of avatars) byBot.set(a.id, { id: a.id, avatar: true, pictureIds: [] });
  for (const p of pictures) {
    const entry = byBot.get(p.botId) ?? { id: p.botId, avatar: false, pictureIds: [] };
    entry.pictureIds.push(p.id);
    byBot.set(p.botId, entry);
  }
  return [...byBot.values()];
}

export interface MessageFiles {
  id: string;
  userId: string;
  mediaKey: string | null;
  originalKey: string | null;
  audioKey: string | null;
}

const fileColumns = {
  id: messages.id,
  userId: messages.userId,
  mediaKey: messages.mediaKey,
  originalKey: messages.originalKey,
  audioKey: messages.audioKey,
};

/** Messages showing, keeping or voicing the file. */
export async function findMessagesWithMedia(
  db: Database,
  key: string,
  options: ReadOptions = {},
): Promise<MessageFiles[]> {
  const query = db
    .select(fileColumns)
    .from(messages)
    .where(or(eq(messages.mediaKey, key), eq(messages.originalKey, key), eq(messages.audioKey, key)));
  return options.lock ? query.for('update') : query;
}

/**
 * Files of the messages in the character's chats (they go with the character). Locking takes
 * its chats first: a message cannot be added to a locked chat until the commit (which deletes
 * the chat with the character).
 */
export async function findCharacterChatFiles(
  db: Database,
  botId: string,
  options: ReadOptions = {},
): Promise<MessageFiles[]> {
  if (options.lock) await db.select({ id: chats.id }).from(chats).where(eq(chats.botId, botId)).for('update');
  return db
    .select(fileColumns)
    .from(messages)
    .innerJoin(chats, eq(chats.id, messages.chatId))
    .where(
      and(
        eq(chats.botId, botId),
        or(
          sql`${messages.mediaKey} is not null`,
          sql`${messages.originalKey} is not null`,
          sql`${messages.audioKey} is not null`,
        ),
      ),
    );
}

/** Messages' files by id (a takedown's plan, a removed reported message). */
export async function findMessagesFiles(
  db: Database,
  ids: string[],
  options: ReadOptions = {},
): Promise<MessageFiles[]> {
  if (!ids.length) return [];
  const query = db.select(fileColumns).from(messages).where(inArray(messages.id, ids));
  return options.lock ? query.for('update') : query;
}

export interface MessageWithContext {
  id: string;
  chatId: string;
  role: string;
  kind: number;
  text: string;
  createdAt: Date;
  mediaKey: string | null;
  audioKey: string | null;
  character: { id: string; name: string; slug: string };
  author: { id: string; email: string; name: string };
}

export async function findMessageWithContext(db: Database, id: string): Promise<MessageWithContext | null> {
  const [row] = await db
    .select({
      id: messages.id,
      chatId: messages.chatId,
      role: messages.role,
      kind: messages.kind,
      text: messages.text,
      createdAt: messages.createdAt,
      mediaKey: messages.mediaKey,
      audioKey: messages.audioKey,
      botId: bots.id,
      botName: bots.name,
      botSlug: bots.slug,
      userId: users.id,
      userEmail: users.email,
      userName: users.name,
    })
    .from(messages)
    .innerJoin(chats, eq(chats.id, messages.chatId))
    .innerJoin(bots, eq(bots.id, chats.botId))
    .innerJoin(users, eq(users.id, chats.userId))
    .where(eq(messages.id, id));
  if (!row) return null;
  return {
    id: row.id,
    chatId: row.chatId,
    role: row.role,
    kind: row.kind,
    text: row.text,
    createdAt: row.createdAt,
    mediaKey: row.mediaKey,
    audioKey: row.audioKey,
    character: { id: row.botId, name: row.botName, slug: row.botSlug },
    author: { id: row.userId, email: row.userEmail, name: row.userName },
  };
}

export async function deleteMessages(db: Database, ids: string[]): Promise<number> {
  if (!ids.length) return 0;
  return deleteRows(db, messages, inArray(messages.id, ids));
}

export async function deleteCharacterPictures(db: Database, pictureIds: string[]): Promise<void> {
  if (pictureIds.length) await db.delete(botPictures).where(inArray(botPictures.id, pictureIds));
}

/** A character without its avatar (the file was taken down); it is unlisted until it gets another. */
export async function clearCharacterAvatar(db: Database, botId: string, key: string): Promise<void> {
  await db
    .update(bots)
    .set({ avatarKey: null, avatarUrl: null, visibility: 'private' })
    .where(and(eq(bots.id, botId), eq(bots.avatarKey, key)));
}
