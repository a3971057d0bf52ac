import type { Database } from '../../db/client.js';
import { messageReports } from '../../db/schema.js';

/** Reports a message once per user; a second report of the same message changes nothing. */
export async function insertReport(
  db: Database,
  values: { messageId: string; userId: string; reason: string; comment: string },
): Promise<void> {
  await db.insert(messageReports).values(values).onConflictDoNothing();
}
