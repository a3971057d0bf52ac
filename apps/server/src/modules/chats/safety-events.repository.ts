import type { Database } from '../../db/client.js';
import { safetyEvents } from '../../db/schema.js';

/** Records a safety event (the minors guard, the crisis protocol): counted in the admin overview. */
export async function recordSafetyEvent(
  db: Database,
  values: { userId: string | null; kind: 'crisis' | 'minors_input' | 'minors_output'; locale: string },
): Promise<void> {
  await db.insert(safetyEvents).values(values);
}
