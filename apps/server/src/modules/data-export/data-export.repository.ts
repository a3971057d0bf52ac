/**
 * The data-export module's SQL: its own `data_exports` rows, and a read model of everything a
 * user's archive holds (docs/ARCHITECTURE.md "Read models"): the account, their characters and
 * personas, chats with their messages, the ledger and payments, and the settings of the
 * companion, push and memory modules. It never writes another module's tables.
 */
import { and, asc, count, desc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { PgTable, SelectedFields } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client.js';
import { updateAny } from '../../db/rows.js';
import {
  bots,
  chatSegments,
  chats,
  companionSettings,
  companionSlots,
  dataExports,
  ledgerEntries,
  memorySettings,
  messageOverrides,
  messages,
  payments,
  pushPreferences,
  pushSubscriptions,
  subscriptions,
  users,
} from '../../db/schema.js';

export type DataExportRow = typeof dataExports.$inferSelect;

// The archives -------------------------------------------------------------------------------

export async function latestExport(db: Database, userId: string): Promise<DataExportRow | null> {
  const [row] = await db
    .select()
    .from(dataExports)
    .where(eq(dataExports.userId, userId))
    .orderBy(desc(dataExports.createdAt), desc(dataExports.id))
    .limit(1);
  return row ?? null;
}

/** The latest archive of the user asked for since `since` that did not fail (the daily limit). */
export async function latestCountedExport(db: Database, userId: string, since: Date): Promise<DataExportRow | null> {
  const [row] = await db
    .select()
    .from(dataExports)
    .where(and(eq(dataExports.userId, userId), gt(dataExports.createdAt, since), sql`${dataExports.state} <> 'failed'`))
    .orderBy(desc(dataExports.createdAt))
    .limit(1);
  return row ?? null;
}

export async function findExport(db: Database, id: string): Promise<DataExportRow | null> {
  const [row] = await db.select().from(dataExports).where(eq(dataExports.id, id)).limit(1);
  return row ?? null;
}

/**
 * A new archive unless one that counts was asked for since `since`: checked and written under a
 * transaction-scoped advisory lock of the user, so two requests at once (two replicas) add one.
 */
export async function insertExportUnlessRecent(
  db: Database,
  userId: string,
  since: Date,
): Promise<DataExportRow | null> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    await t.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`data-export:${userId}`}, 0))`);
    if (await latestCountedExport(t, userId, since)) return null;
    const [row] = await t.insert(dataExports).values({ userId }).returning();
    return row!;
  });
}

/** The user's earlier archives still holding a file (a new one replaces them). */
export async function olderFiles(db: Database, userId: string, exceptId: string) {
  return db
    .select({ id: dataExports.id, storageKey: dataExports.storageKey })
    .from(dataExports)
    .where(
      and(
        eq(dataExports.userId, userId),
        sql`${dataExports.id} <> ${exceptId}`,
        sql`${dataExports.storageKey} is not null`,
      ),
    );
}

/** Ready: only from `preparing` (a retried job that finds it ready writes nothing). */
export async function markReady(
  db: Database,
  id: string,
  values: { storageKey: string; size: number; readyAt: Date; expiresAt: Date },
): Promise<boolean> {
  return updateAny(db, dataExports, and(eq(dataExports.id, id), eq(dataExports.state, 'preparing')), {
    state: 'ready',
    ...values,
  });
}

export async function markFailed(db: Database, id: string): Promise<boolean> {
  return updateAny(db, dataExports, and(eq(dataExports.id, id), eq(dataExports.state, 'preparing')), {
    state: 'failed',
  });
}

/** The file is gone: `expired` (a ready archive past its time) and no key any more. */
export async function markFileGone(db: Database, id: string): Promise<void> {
  await db
    .update(dataExports)
    .set({
      state: sql`case when ${dataExports.state} = 'ready' then 'expired' else ${dataExports.state} end`,
      storageKey: null,
    })
    .where(eq(dataExports.id, id));
}

/** Ready archives whose time is up (the sweep that backs up the per-archive expiry job). */
export async function expiredExports(db: Database, now: Date, limit = 100) {
  return db
    .select({ id: dataExports.id, storageKey: dataExports.storageKey })
    .from(dataExports)
    .where(and(eq(dataExports.state, 'ready'), lte(dataExports.expiresAt, now)))
    .limit(limit);
}

// The read model: what the archive holds ------------------------------------------------------

/** The account, without its password hash or any token. */
export async function findAccount(db: Database, userId: string) {
  const [row] = await db
    .select({
      id: users.id,
      username: users.username,
      email: users.email,
      name: users.name,
      age: users.age,
      locale: users.locale,
      role: users.role,
      isEmailConfirmed: users.isEmailConfirmed,
      desires: users.numTokens,
      interests: users.interests,
      creatorPageHidden: users.creatorPageHidden,
      marketingEmails: users.marketingEmails,
      createdAt: users.createdAt,
      updatedAt: users.updatedAt,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row ?? null;
}

export type AccountExportRow = NonNullable<Awaited<ReturnType<typeof findAccount>>>;

/** The user's own characters and personas (deleted ones too: they still hold the user's chats). */
export async function authoredBots(db: Database, userId: string) {
  return db.select().from(bots).where(eq(bots.authorId, userId)).orderBy(asc(bots.createdAt), asc(bots.id));
}

/** Every chat of the user, branches included, with the character's name and slug. */
export async function userChats(db: Database, userId: string) {
  return db
    .select({
      id: chats.id,
      title: chats.title,
      botId: chats.botId,
      botName: bots.name,
      botSlug: bots.slug,
      personaId: chats.personaId,
      modelId: chats.modelId,
      memory: chats.memory,
      remember: chats.remember,
      authorNote: chats.authorNote,
      authorNoteDepth: chats.authorNoteDepth,
      parentChatId: chats.parentChatId,
      rootChatId: chats.rootChatId,
      forkMessageId: chats.forkMessageId,
      createdAt: chats.createdAt,
      updatedAt: chats.updatedAt,
    })
    .from(chats)
    .innerJoin(bots, eq(bots.id, chats.botId))
    .where(eq(chats.userId, userId))
    .orderBy(asc(chats.createdAt), asc(chats.id));
}

export type ChatExportRow = Awaited<ReturnType<typeof userChats>>[number];

/** A branch's shared history: the chats (and up to which message) it continues. */
/** The characters these ids name (memories and journal entries say whose they are). */
export async function charactersOf(db: Database, ids: string[]) {
  if (!ids.length) return [];
  return db
    .select({ id: bots.id, name: bots.name, slug: bots.slug })
    .from(bots)
    .where(inArray(bots.id, [...new Set(ids)]));
}

export async function chatSegmentsOf(db: Database, chatId: string) {
  return db
    .select({ sourceChatId: chatSegments.sourceChatId, throughSeq: chatSegments.throughSeq })
    .from(chatSegments)
    .where(eq(chatSegments.chatId, chatId));
}

/** A branch's own changes to shared messages (edits, deletions). */
export async function chatOverridesOf(db: Database, chatId: string) {
  return db
    .select({
      messageId: messageOverrides.messageId,
      text: messageOverrides.text,
      deleted: messageOverrides.deleted,
      editedAt: messageOverrides.editedAt,
    })
    .from(messageOverrides)
    .where(eq(messageOverrides.chatId, chatId));
}

/** Where a page of messages ends: a reply's alternatives share their `seq`, told apart by `id`. */
export type MessageCursor = { seq: number; id: string | null };

/**
 * One page of a chat's own messages after `after` (keyset on `seq, id`: memory stays bounded
 * however long the chat, and a page never ends between alternatives sharing a `seq` and skips one).
 */
export async function messagePage(db: Database, userId: string, chatId: string, after: MessageCursor, limit: number) {
  return db
    .select({
      id: messages.id,
      seq: messages.seq,
      role: messages.role,
      kind: messages.kind,
      text: messages.text,
      state: messages.state,
      notice: messages.notice,
      replyTo: messages.replyTo,
      altIndex: messages.altIndex,
      selected: messages.selected,
      mediaKey: messages.mediaKey,
      audioKey: messages.audioKey,
      spoken: messages.spoken,
      proactive: sql<boolean>`${messages.proactiveSlot} is not null`,
      editedAt: messages.editedAt,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .where(
      and(
        eq(messages.chatId, chatId),
        eq(messages.userId, userId),
        after.id === null
          ? gt(messages.seq, after.seq)
          : sql`(${messages.seq}, ${messages.id}) > (${after.seq}::bigint, ${after.id}::uuid)`,
      ),
    )
    .orderBy(asc(messages.seq), asc(messages.id))
    .limit(limit);
}

export type MessageExportRow = Awaited<ReturnType<typeof messagePage>>[number];

export async function ledgerOf(db: Database, userId: string) {
  return db
    .select({
      amount: ledgerEntries.amount,
      reason: ledgerEntries.reason,
      reference: ledgerEntries.reference,
      createdAt: ledgerEntries.createdAt,
    })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.userId, userId))
    .orderBy(asc(ledgerEntries.createdAt), asc(ledgerEntries.id));
}

/** These columns of the user's rows of a billing table (`user_id`, `created_at`), oldest first. */
function billingRowsOf<Columns extends SelectedFields>(
  db: Database,
  table: typeof payments | typeof subscriptions,
  columns: Columns,
  userId: string,
) {
  return db
    .select(columns)
    .from(table as PgTable)
    .where(eq(table.userId, userId))
    .orderBy(asc(table.createdAt));
}

export async function paymentsOf(db: Database, userId: string) {
  const { id, provider, plan, amountCents, currency, status, trialDays, refundedCents, createdAt } = payments;
  const columns = { id, provider, plan, amountCents, currency, status, trialDays, refundedCents, createdAt };
  return billingRowsOf(db, payments, columns, userId);
}

export async function subscriptionsOf(db: Database, userId: string) {
  const { provider, plan, status, trialEndsAt, currentPeriodEnd, cancelAtPeriodEnd, createdAt } = subscriptions;
  const columns = { provider, plan, status, trialEndsAt, currentPeriodEnd, cancelAtPeriodEnd, createdAt };
  return billingRowsOf(db, subscriptions, columns, userId);
}

/** The settings other modules keep for the user (companion, push, memory), as stored. */
export async function settingsOf(db: Database, userId: string) {
  const [companion] = await db
    .select({
      timeZone: companionSettings.timeZone,
      quietStart: companionSettings.quietStart,
      quietEnd: companionSettings.quietEnd,
      dailyCap: companionSettings.dailyCap,
      emailDigest: companionSettings.emailDigest,
    })
    .from(companionSettings)
    .where(eq(companionSettings.userId, userId));
  const proactive = await db
    .select({ chatId: companionSlots.chatId, frequency: companionSlots.frequency, nextAt: companionSlots.slotAt })
    .from(companionSlots)
    .where(eq(companionSlots.userId, userId));
  const [push] = await db
    .select({ preview: pushPreferences.preview, replies: pushPreferences.replies })
    .from(pushPreferences)
    .where(eq(pushPreferences.userId, userId));
  // Devices: when each subscribed (their endpoints and keys are the push services', not shown).
  const devices = await db
    .select({ subscribedAt: pushSubscriptions.createdAt, lastDeliveryAt: pushSubscriptions.lastSuccessAt })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(asc(pushSubscriptions.createdAt));
  const memory = await db
    .select({ characterId: memorySettings.botId, journal: memorySettings.journal })
    .from(memorySettings)
    .where(eq(memorySettings.userId, userId));
  return { companion: companion ?? null, proactive, push: push ?? null, devices, memory };
}

/** How many archives the user asked for (tests, metrics). */
export async function countExports(db: Database, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(dataExports).where(eq(dataExports.userId, userId));
  return Number(row?.n ?? 0);
}
