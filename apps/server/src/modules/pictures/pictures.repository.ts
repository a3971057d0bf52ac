import { and, asc, eq, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { findRow, insertIfAbsent } from '../../db/rows.js';
import {
  botPictureSends,
  botPictures,
  bots,
  chatCharacters,
  chats,
  messages,
  type StoredSpeaker,
} from '../../db/schema.js';

export type MessageRow = typeof messages.$inferSelect;
/** Who sends a picture in a group chat (`messages.speaker`). */
export type PictureSpeaker = StoredSpeaker;

/** The chat, when it belongs to the user and is with that character (in a group chat: one of its characters). */
export async function findOwnedChat(db: Database, chatId: string, userId: string, botId: string) {
  const [row] = await db
    .select({ id: chats.id })
    .from(chats)
    .where(
      and(
        eq(chats.id, chatId),
        eq(chats.userId, userId),
        or(
          eq(chats.botId, botId),
          sql`exists (select 1 from ${chatCharacters} where ${chatCharacters.chatId} = ${chats.id} and ${chatCharacters.botId} = ${botId})`,
        ),
      ),
    );
  return row ?? null;
}

/** What a picture is made from: the character's appearance and its avatar. */
export async function findBotLook(db: Database, botId: string) {
  const [row] = await db
    .select({
      id: bots.id,
      name: bots.name,
      age: bots.age,
      description: bots.description,
      tags: bots.tags,
      avatarKey: bots.avatarKey,
      avatarExplicit: bots.avatarExplicit,
      authorId: bots.authorId,
      isOfficial: bots.isOfficial,
      picturesReviewedAt: bots.picturesReviewedAt,
    })
    .from(bots)
    .where(eq(bots.id, botId));
  return row ?? null;
}

/** The character's private pictures (the ones it sends in chat), in order. */
export async function listPrivatePictures(db: Database, botId: string) {
  return db
    .select({ id: botPictures.id, mediaKey: botPictures.mediaKey, explicit: botPictures.explicit })
    .from(botPictures)
    .where(and(eq(botPictures.botId, botId), eq(botPictures.visibility, 'private')))
    .orderBy(asc(botPictures.position), asc(botPictures.createdAt));
}

/** The ids of the character's pictures the user was already sent. */
export async function sentPictureIds(db: Database, userId: string, botId: string): Promise<Set<string>> {
  const rows = await db
    .select({ pictureId: botPictureSends.pictureId })
    .from(botPictureSends)
    .where(and(eq(botPictureSends.userId, userId), eq(botPictureSends.botId, botId)));
  return new Set(rows.map((row) => row.pictureId));
}

/**
 * Records that the user is sent this picture; false when it was already recorded (another
 * request took it at the same moment), so no two requests send the same picture.
 */
export async function claimPictureSend(db: Database, userId: string, botId: string, pictureId: string) {
  return (await insertIfAbsent(db, botPictureSends, { userId, botId, pictureId })) !== null;
}

/** Forgets a send that did not happen (the picture could not be stored). */
export async function releasePictureSend(db: Database, userId: string, pictureId: string): Promise<void> {
  await db
    .delete(botPictureSends)
    .where(and(eq(botPictureSends.userId, userId), eq(botPictureSends.pictureId, pictureId)));
}

/**
 * Inserts a bot picture message (or the words that stand for one) answering `replyTo`. When that message already has replies
 * (a regenerated answer) the picture becomes the next alternative and the selected one.
 */
export async function insertPictureMessage(
  db: Database,
  values: {
    chatId: string;
    userId: string;
    replyTo: string;
    /** 2 and 3: a picture (clear, blurred); 1: the character's words when she has none to send. */
    kind: 1 | 2 | 3;
    text: string;
    mediaKey: string | null;
    originalKey: string | null;
    /** A group chat: the character who sends it. */
    speaker?: StoredSpeaker | null;
  },
): Promise<string> {
  return db.transaction(async (tx) => {
    const [last] = await tx
      .select({ altIndex: sql<number>`max(${messages.altIndex})` })
      .from(messages)
      .where(and(eq(messages.replyTo, values.replyTo), eq(messages.chatId, values.chatId)));
    const altIndex = last?.altIndex === null || last?.altIndex === undefined ? 0 : Number(last.altIndex) + 1;
    if (altIndex > 0) {
      await tx
        .update(messages)
        .set({ selected: false })
        .where(and(eq(messages.replyTo, values.replyTo), eq(messages.chatId, values.chatId)));
    }
    const [row] = await tx
      .insert(messages)
      .values({ ...values, role: 'bot', state: 'done', altIndex, selected: true })
      .returning({ id: messages.id });
    await tx.update(chats).set({ updatedAt: new Date() }).where(eq(chats.id, values.chatId));
    return row!.id;
  });
}

/** A message of the user (any other user's answers nothing). */
export async function findOwnedMessage(db: Database, messageId: string, userId: string): Promise<MessageRow | null> {
  return findRow(db, messages, and(eq(messages.id, messageId), eq(messages.userId, userId)));
}

/** Shows the original from now on: kind Image, media_key = the original. */
export async function markUnblurred(db: Database, messageId: string, userId: string, originalKey: string) {
  await db
    .update(messages)
    .set({ kind: 2, mediaKey: originalKey, updatedAt: new Date() })
    .where(and(eq(messages.id, messageId), eq(messages.userId, userId), eq(messages.originalKey, originalKey)));
}
