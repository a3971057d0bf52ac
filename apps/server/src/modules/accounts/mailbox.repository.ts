import { desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { mailOutbox } from '../../db/schema.js';

export type OutboxMailRow = typeof mailOutbox.$inferSelect;

/** The newest mails of the local outbox, newest first. */
export function listLatestMails(db: Database, limit: number): Promise<OutboxMailRow[]> {
  return db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(limit);
}

/** One mail of the local outbox, or null. */
export async function findMail(db: Database, id: number): Promise<OutboxMailRow | null> {
  const [mail] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, id)).limit(1);
  return mail ?? null;
}
