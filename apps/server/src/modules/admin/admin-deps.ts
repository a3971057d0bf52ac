import type { z } from 'zod';
import type { AdminCharacterInput, AdminCharacterPatch } from '@reverie/shared';
import type { Core } from '../../core.js';
import type { Database } from '../../db/client.js';
import type { AuditEntry } from '../../lib/audit-entry.js';
import type { UserDataDeleter } from '../accounts/index.js';
import type { BlogPostRow, NewBlogPost } from '../blog/index.js';
import type { BotPictureRow, BotRow, PreparedCardImport } from '../bots/index.js';
import type { OperatorBodySchema, OperatorResultSchema } from './local-admin.routes.js';
import type { AdminUserRow } from './users.repository.js';

// The other modules' APIs the console uses, each as narrow as the console's use of it. app.ts
// gives them (`adminModule`'s deps). A method whose first parameter is `tx` runs inside the
// console's transaction, so the change and its audit record commit together.

/** Bans, sessions, delete-all-data and the operator commands (the accounts module). */
/** A stored picture: its key, and whether the judge found it explicit (blurred for guests). */
export interface StoredPicture {
  key: string;
  explicit: boolean;
}

export interface AdminAccounts {
  /** Bans the user in `tx`; the console ends the sessions after the commit. */
  ban(tx: Database, userId: string, reason: string): Promise<AdminUserRow>;
  unban(tx: Database, userId: string): Promise<AdminUserRow>;
  /** Revokes every refresh token of the user in `tx`. */
  endAllSessions(tx: Database, userId: string): Promise<void>;
  /** The delete-all-data path (cancels the subscription first); `extra` run in its transaction. */
  deleteAllData(userId: string, extra: UserDataDeleter[]): Promise<void>;
  /** `npm run admin:create|ban|unban`, each change recorded by `audit`. */
  runOperatorCommand(command: OperatorCommand, audit: (entry: AuditEntry) => Promise<void>): Promise<OperatorResult>;
}

/** What `POST /api/local/admin` asks and answers (validated by local-admin.routes.ts). */
export type OperatorCommand = z.output<typeof OperatorBodySchema>;
export type OperatorResult = z.output<typeof OperatorResultSchema>;

/** Desires and the ledger's invariant (the billing module). */
export interface AdminBilling {
  /** One ledger entry granting (> 0) or removing (< 0) desires, in `tx`; never below zero (409). */
  adjustDesires(
    tx: Database,
    change: { userId: string; amount: number; reason: string },
  ): Promise<{ balance: number; entryId: number }>;
  /** The users whose balance differs from the sum of their ledger entries. */
  findLedgerMismatches(): Promise<{ user_id: string; num_tokens: number; ledger_sum: number }[]>;
}

type BotChange = Promise<{ before: BotRow; after: BotRow }>;

/**
 * Characters, their gallery, the review queue and a takedown's deletion (the bots module's
 * console service: the same moderation and photo check). `within(tx)` answers the same view
 * writing in the console's transaction.
 */
export interface AdminBots {
  within(tx: Database): AdminBots;
  findBotById(id: string): Promise<BotRow | null>;
  listManagedBots(query: {
    scope: 'official' | 'public';
    search?: string;
    offset: number;
    limit: number;
  }): Promise<{ rows: BotRow[]; total: number }>;
  listGalleries(botIds: string[]): Promise<Map<string, BotPictureRow[]>>;
  listPendingReview(limit: number): Promise<BotRow[]>;
  countPendingReview(): Promise<number>;
  createOfficialBot(input: AdminCharacterInput): Promise<BotRow>;
  updateManagedBot(id: string, patch: AdminCharacterPatch): BotChange;
  /** A card read, judged and its picture stored, outside any transaction. */
  prepareOfficialCard(file: Buffer, visibility: 'public' | 'private'): Promise<PreparedCardImport>;
  insertPreparedCard(prepared: PreparedCardImport): Promise<BotRow>;
  lockBot(id: string): Promise<BotRow>;
  setBotVisibility(id: string, visibility: 'public' | 'private'): BotChange;
  unpublishBot(id: string, reason: string): BotChange;
  decideReview(
    id: string,
    decision: { approve: true; reviewerId: string } | { approve: false; reviewerId: string; reason: string },
  ): BotChange;
  /** Sanitises, judges and stores a gallery picture; answers its key and the judge's verdict. */
  storeGalleryFile(botId: string, file: Buffer): Promise<StoredPicture>;
  addGalleryPicture(
    botId: string,
    stored: StoredPicture,
  ): Promise<{ before: BotRow; after: BotRow; picture: BotPictureRow }>;
  removeGalleryPicture(
    botId: string,
    pictureId: string,
  ): Promise<{ before: BotRow; after: BotRow; picture: BotPictureRow; needsAvatar: boolean }>;
  giveDrawnAvatar(row: BotRow): Promise<void>;
  reorderGallery(botId: string, order: string[]): Promise<BotPictureRow[]>;
  chooseAvatar(botId: string, pictureId: string): BotChange;
  setPictureVisibility(botId: string, pictureId: string, visibility: 'public' | 'private'): BotChange;
  /** Deletes characters (their chats, messages and gallery rows go with them). */
  deleteCharacters(ids: string[]): Promise<number>;
}

/**
 * The console's posts (the blog module). `db` may be a transaction: a post and its audit
 * record commit together.
 */
export interface AdminBlogPosts {
  listAllPosts(db: Database): Promise<BlogPostRow[]>;
  findPostForUpdate(db: Database, id: string): Promise<BlogPostRow | null>;
  insertPost(db: Database, values: NewBlogPost): Promise<BlogPostRow | null>;
  updatePost(db: Database, id: string, values: Partial<NewBlogPost>): Promise<BlogPostRow>;
  deletePost(db: Database, id: string): Promise<void>;
}

/** Style transforms a takedown names (the transforms module). */
export interface AdminTransforms {
  /** The transform a media key belongs to, if any. */
  transformOfMediaKey(key: string): { userId: string; id: string } | null;
  /** Deletes its row in `tx`; answers its files' keys (null when it was gone). */
  deleteTransform(
    tx: Database,
    id: string,
    userId: string,
  ): Promise<{ originalKey: string | null; resultKey: string | null } | null>;
}

/** What the console's sections are given (adminModule builds it once). */
export type AdminDeps = Pick<Core, 'db' | 'mail' | 'storage' | 'urls' | 'sessions' | 'edition' | 'log'> & {
  publicUrl: string;
  accounts: AdminAccounts;
  billing: AdminBilling;
  bots: AdminBots;
  blog: AdminBlogPosts;
  transforms: AdminTransforms;
};
