import { takedownRequests } from '../../db/schema.js';
import type { Database } from '../../db/client.js';

export type TakedownRow = typeof takedownRequests.$inferSelect;

/** Stores a request; null when the reference is taken already (the caller draws another). */
export async function insertTakedownRequest(
  db: Database,
  values: Omit<typeof takedownRequests.$inferInsert, 'id' | 'status' | 'createdAt'>,
): Promise<TakedownRow | null> {
  const [row] = await db
    .insert(takedownRequests)
    .values(values)
    .onConflictDoNothing({ target: takedownRequests.reference })
    .returning();
  return row ?? null;
}
