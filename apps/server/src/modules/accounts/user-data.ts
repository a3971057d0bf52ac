import fs from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '../../db/client.js';
import type { MediaStorage } from '../../providers/storage/storage.js';
import { deleteUserTransforms, userTransformPrefix } from '../transforms/index.js';
import { characterFilePrefix } from '../bots/index.js';
import { deleteUserMemories } from '../memories/index.js';
import { dataExportPrefix } from '../data-export/index.js';
import type { UserRow } from './accounts.repository.js';
import * as repo from './user-data.repository.js';

/**
 * Deletes one table's rows of a user inside the deletion transaction. Modules that add
 * user-owned tables (chats, messages, pictures, audio…) add a deleter here, or pass one in;
 * payment records are anonymised (user id set to null), never deleted.
 */
export interface UserDataDeleter {
  name: string;
  delete(tx: Database, user: UserRow): Promise<void>;
}

/** Removes a user's files after the rows are gone (media, audio, uploads). */
export type UserFileDeleter = (user: UserRow, dataDir: string) => Promise<void>;

export const CORE_DELETERS: UserDataDeleter[] = [
  // Analytics identity: the events the user produced while signed in.
  { name: 'analytics_events', delete: (tx, u) => repo.deleteUserAnalyticsEvents(tx, u.id) },
  { name: 'support_reports', delete: (tx, u) => repo.deleteUserSupportReports(tx, u.id) },
  { name: 'mail_outbox', delete: (tx, u) => repo.deleteUserMail(tx, u.id, u.email) },
  { name: 'email_tokens', delete: (tx, u) => repo.deleteUserEmailTokens(tx, u.id) },
  { name: 'refresh_tokens', delete: (tx, u) => repo.deleteUserRefreshTokens(tx, u.id) },
  // Voice calls (issue 14): their rows, live or ended (a live call's socket then finds it gone and closes).
  { name: 'calls', delete: (tx, u) => repo.deleteUserCalls(tx, u.id) },
  // Long-term memories (issue 28): memories with their revisions and citations, settings, journal.
  { name: 'memories', delete: (tx, u) => deleteUserMemories(tx, u.id) },
  { name: 'bots', delete: (tx, u) => repo.deleteUserBots(tx, u.id) },
  // Style transforms (issue 16): their rows; their files are under transforms/<user id>/ (below).
  { name: 'image_transforms', delete: async (tx, u) => deleteUserTransforms(tx, u.id) },
];

/** Everything under DATA_DIR/media/users/<id> (where user uploads are stored). */
export const userMediaDir = (dataDir: string, userId: string) => path.join(dataDir, 'media', 'users', userId);

export const CORE_FILE_DELETERS: UserFileDeleter[] = [
  (user, dataDir) => fs.rm(userMediaDir(dataDir, user.id), { recursive: true, force: true }),
];

/**
 * Where a user's chat media lives in storage (modules/pictures, modules/audio): pictures and
 * voice files under `chats/<user id>/`, blurred pictures' originals under `originals/<user id>/`.
 */
export const userChatMediaPrefixes = (userId: string): string[] => [`chats/${userId}`, `originals/${userId}`];

/**
 * The user's own files among messages' media keys (picture, original, voice file). A picture
 * sent from a character's gallery points at the character's file (`bots/<id>/…`): never one
 * of the user's, so it is left alone.
 */
export function ownedChatMediaKeys(
  userId: string,
  rows: { mediaKey: string | null; originalKey: string | null; audioKey: string | null }[],
): string[] {
  const prefixes = userChatMediaPrefixes(userId).map((prefix) => `${prefix}/`);
  const keys = new Set<string>();
  for (const row of rows)
    for (const key of [row.mediaKey, row.originalKey, row.audioKey])
      if (key && prefixes.some((prefix) => key.startsWith(prefix))) keys.add(key);
  return [...keys];
}

/**
 * Removes the files of some of the user's messages (one chat deleted): each key once; a file
 * already gone is not an error.
 */
export async function deleteChatMedia(
  storage: MediaStorage,
  userId: string,
  rows: { mediaKey: string | null; originalKey: string | null; audioKey: string | null }[],
): Promise<void> {
  for (const key of ownedChatMediaKeys(userId, rows)) await storage.delete(key);
}

export interface UserDataDeletionDeps {
  db: Database;
  dataDir: string;
  /** Media storage, so the user's files go with the user. */
  storage?: MediaStorage;
  /** Per-table deleters other modules plug in (run inside the deletion transaction). */
  deleters?: UserDataDeleter[];
  fileDeleters?: UserFileDeleter[];
}

/** Delete all data: every row of the user in one transaction, then the user's files. */
export class UserDataDeletion {
  constructor(private readonly deps: UserDataDeletionDeps) {}

  /** Deletes the user; `extra` deleters run first, inside the same transaction. */
  async delete(user: UserRow, extra: UserDataDeleter[] = []): Promise<void> {
    const { db, storage } = this.deps;
    const deleters = [...extra, ...(this.deps.deleters ?? []), ...CORE_DELETERS];
    // The user's characters keep their pictures under bots/<id>/ in media storage.
    const authored = await repo.listAuthoredBotIds(db, user.id);
    await db.transaction(async (tx) => {
      for (const deleter of deleters) await deleter.delete(tx as unknown as Database, user);
      await repo.deleteUserRow(tx as unknown as Database, user.id);
    });
    for (const remove of [...CORE_FILE_DELETERS, ...(this.deps.fileDeleters ?? [])])
      await remove(user, this.deps.dataDir);
    if (storage) {
      for (const botId of authored) await storage.deletePrefix(characterFilePrefix(botId));
      // Pictures and voice files of the user's chats, and the pictures' private originals.
      for (const prefix of userChatMediaPrefixes(user.id)) await storage.deletePrefix(prefix);
      // Style transforms' originals and results.
      await storage.deletePrefix(userTransformPrefix(user.id));
      // Download my data: the archives not yet expired.
      await storage.deletePrefix(dataExportPrefix(user.id));
    }
  }
}
