import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { findRow, insertRow } from '../../db/rows.js';
import { imageTransforms } from '../../db/schema.js';

export type TransformRow = typeof imageTransforms.$inferSelect;

export async function insertTransform(
  db: Database,
  row: { id: string; userId: string; style: string; originalKey: string },
): Promise<TransformRow> {
  return insertRow(db, imageTransforms, row);
}

/** The user's transform; null for another user's or a missing one (404 either way). */
export async function findOwnedTransform(db: Database, id: string, userId: string): Promise<TransformRow | null> {
  return findRow(db, imageTransforms, and(eq(imageTransforms.id, id), eq(imageTransforms.userId, userId)));
}

export async function findTransform(db: Database, id: string): Promise<TransformRow | null> {
  return findRow(db, imageTransforms, eq(imageTransforms.id, id));
}

/** The user's transforms, newest first. */
export async function listTransforms(db: Database, userId: string, limit: number): Promise<TransformRow[]> {
  return db
    .select()
    .from(imageTransforms)
    .where(eq(imageTransforms.userId, userId))
    .orderBy(desc(imageTransforms.createdAt), desc(imageTransforms.id))
    .limit(limit);
}

/** The user's transforms never paid for (uploaded or verified): a new upload replaces them. */
export async function deleteUnpaidTransforms(db: Database, userId: string): Promise<TransformRow[]> {
  return db
    .delete(imageTransforms)
    .where(and(eq(imageTransforms.userId, userId), inArray(imageTransforms.state, ['uploaded', 'verified'])))
    .returning();
}

/**
 * Unpaid transforms (`uploaded`: not judged yet; `verified`: not paid) last changed before
 * `before`: abandoned. Deleted and answered (their files are the caller's to delete).
 */
export async function deleteAbandonedTransforms(db: Database, before: Date, limit: number): Promise<TransformRow[]> {
  return db
    .delete(imageTransforms)
    .where(
      inArray(
        imageTransforms.id,
        db
          .select({ id: imageTransforms.id })
          .from(imageTransforms)
          .where(and(inArray(imageTransforms.state, ['uploaded', 'verified']), lt(imageTransforms.updatedAt, before)))
          .limit(limit),
      ),
    )
    .returning();
}

/** `uploaded` → `verified` with the time of the rights attestation; false when it was not `uploaded`. */
export async function markVerified(db: Database, id: string, userId: string): Promise<boolean> {
  const rows = await db
    .update(imageTransforms)
    .set({ state: 'verified', rightsConfirmedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(imageTransforms.id, id), eq(imageTransforms.userId, userId), eq(imageTransforms.state, 'uploaded')))
    .returning({ id: imageTransforms.id });
  return rows.length === 1;
}

/**
 * `verified` → `processing` (one request wins; the partial unique index refuses a second
 * processing transform of the user: a unique violation the caller turns into 409).
 */
export async function claimProcessing(db: Database, id: string, userId: string): Promise<boolean> {
  const rows = await db
    .update(imageTransforms)
    .set({ state: 'processing', updatedAt: sql`now()` })
    .where(and(eq(imageTransforms.id, id), eq(imageTransforms.userId, userId), eq(imageTransforms.state, 'verified')))
    .returning({ id: imageTransforms.id });
  return rows.length === 1;
}

/** A claim that could not be paid: back to `verified`. */
export async function releaseProcessing(db: Database, id: string): Promise<void> {
  await db
    .update(imageTransforms)
    .set({ state: 'verified', updatedAt: sql`now()` })
    .where(and(eq(imageTransforms.id, id), eq(imageTransforms.state, 'processing')));
}

export async function setCharged(db: Database, id: string, charged: number): Promise<void> {
  await db
    .update(imageTransforms)
    .set({ charged, updatedAt: sql`now()` })
    .where(eq(imageTransforms.id, id));
}

/** The result, only while the transform is still `processing` (false: deleted meanwhile). */
export async function finishTransform(db: Database, id: string, resultKey: string): Promise<boolean> {
  const rows = await db
    .update(imageTransforms)
    .set({ state: 'ready', resultKey, errorCode: null, updatedAt: sql`now()` })
    .where(and(eq(imageTransforms.id, id), eq(imageTransforms.state, 'processing')))
    .returning({ id: imageTransforms.id });
  return rows.length === 1;
}

/** Failed for good: `failed` with its code and nothing charged any more (the refund is in the ledger). */
export async function failTransform(db: Database, id: string, errorCode: string): Promise<void> {
  await db
    .update(imageTransforms)
    .set({ state: 'failed', errorCode, charged: 0, updatedAt: sql`now()` })
    .where(and(eq(imageTransforms.id, id), inArray(imageTransforms.state, ['processing', 'failed'])));
}

export async function deleteTransform(db: Database, id: string, userId: string): Promise<TransformRow | null> {
  const [row] = await db
    .delete(imageTransforms)
    .where(and(eq(imageTransforms.id, id), eq(imageTransforms.userId, userId)))
    .returning();
  return row ?? null;
}

/** Every transform of a user (delete all data): their rows go, their files are under `transforms/<user id>/`. */
export async function deleteUserTransforms(db: Database, userId: string): Promise<void> {
  await db.delete(imageTransforms).where(eq(imageTransforms.userId, userId));
}
