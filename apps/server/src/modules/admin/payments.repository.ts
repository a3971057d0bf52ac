import { and, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { webhookDeliveries } from '../../db/schema.js';
import { microsecondText } from './audit.repository.js';

export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect & { cursorAt: string };

/** Webhook deliveries, newest first, a keyset page after `(receivedAt, id)`. */
export async function listDeliveries(
  db: Database,
  options: {
    size: number;
    after?: { receivedAt: string; id: number } | null;
    outcome?: WebhookDeliveryRow['outcome'];
    provider?: string;
  },
): Promise<WebhookDeliveryRow[]> {
  const conditions = [];
  if (options.after)
    conditions.push(
      sql`(${webhookDeliveries.receivedAt}, ${webhookDeliveries.id}) < (${options.after.receivedAt}::timestamptz, ${options.after.id})`,
    );
  if (options.outcome) conditions.push(eq(webhookDeliveries.outcome, options.outcome));
  if (options.provider) conditions.push(eq(webhookDeliveries.provider, options.provider));
  return db
    .select({ ...getTableColumns(webhookDeliveries), cursorAt: microsecondText(sql`${webhookDeliveries.receivedAt}`) })
    .from(webhookDeliveries)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(webhookDeliveries.receivedAt), desc(webhookDeliveries.id))
    .limit(options.size);
}
