import type { Database } from '../../db/client.js';
import { findCurrentSubscription } from './billing.repository.js';

/**
 * True while a subscription period (trial included, cancelled included) has not ended. A read
 * on the `db` it is given, so other modules may ask inside their own transaction.
 */
export async function hasPremium(db: Database, userId: string, now = new Date()): Promise<boolean> {
  return (await findCurrentSubscription(db, userId, now)) !== null;
}
