/**
 * The push module's SQL: device subscriptions and notification choices (its own tables), and
 * the user's language (`users.locale`, a read model: docs/ARCHITECTURE.md "Read models").
 */
import { and, asc, count, eq, notInArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { deleteRows } from '../../db/rows.js';
import { pushPreferences, pushSubscriptions, users } from '../../db/schema.js';

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

/** Stores a device's subscription; the same endpoint (a device subscribing again) is replaced, for this user. */
export async function upsertSubscription(
  db: Database,
  values: { userId: string; endpoint: string; p256dh: string; auth: string },
): Promise<void> {
  await db
    .insert(pushSubscriptions)
    .values(values)
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: { userId: values.userId, p256dh: values.p256dh, auth: values.auth, createdAt: sql`now()` },
    });
}

/** Keeps the user's `keep` newest subscriptions (a browser that never unsubscribes is not kept forever). */
export async function trimSubscriptions(db: Database, userId: string, keep: number): Promise<void> {
  const newest = db
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(sql`${pushSubscriptions.createdAt} desc`)
    .limit(keep);
  await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), notInArray(pushSubscriptions.id, newest)));
}

/** Removes the user's subscription of this endpoint; whether one was removed. */
export async function deleteSubscription(db: Database, userId: string, endpoint: string): Promise<boolean> {
  const theirs = and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint));
  return (await deleteRows(db, pushSubscriptions, theirs)) > 0;
}

/** Removes a subscription the push service no longer knows (404/410). */
export async function deleteSubscriptionById(db: Database, id: string): Promise<void> {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
}

export async function findSubscription(db: Database, id: string): Promise<PushSubscriptionRow | null> {
  const [row] = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, id));
  return row ?? null;
}

export async function listSubscriptions(db: Database, userId: string): Promise<PushSubscriptionRow[]> {
  return db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(asc(pushSubscriptions.createdAt));
}

export async function countSubscriptions(db: Database, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
  return row?.n ?? 0;
}

export async function markDelivered(db: Database, id: string): Promise<void> {
  await db
    .update(pushSubscriptions)
    .set({ lastSuccessAt: sql`now()` })
    .where(eq(pushSubscriptions.id, id));
}

export interface PushChoices {
  preview: boolean;
  replies: boolean;
}

/** The user's choices and language (defaults when never changed); null for an unknown user. */
export async function findChoices(db: Database, userId: string): Promise<(PushChoices & { locale: string }) | null> {
  const [row] = await db
    .select({ locale: users.locale, preview: pushPreferences.preview, replies: pushPreferences.replies })
    .from(users)
    .leftJoin(pushPreferences, eq(pushPreferences.userId, users.id))
    .where(eq(users.id, userId));
  if (!row) return null;
  return { locale: row.locale, preview: row.preview ?? true, replies: row.replies ?? false };
}

export async function saveChoices(db: Database, userId: string, choices: Partial<PushChoices>): Promise<void> {
  await db
    .insert(pushPreferences)
    .values({ userId, ...choices })
    .onConflictDoUpdate({ target: pushPreferences.userId, set: { ...choices, updatedAt: sql`now()` } });
}
