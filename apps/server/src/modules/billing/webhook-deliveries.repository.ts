import { inArray, lt, sql } from 'drizzle-orm';
import { webhookDeliveries } from '../../db/schema.js';
import type { Database } from '../../db/client.js';

/** One payment webhook delivery as the admin console shows it (never its body, never a secret). */
export interface WebhookDeliveryInput {
  provider: string;
  eventId: string | null;
  type: string | null;
  outcome: 'processed' | 'duplicate' | 'ignored' | 'rejected' | 'failed';
  httpStatus: number;
  detail: string | null;
  /** Our payment id when the event names one; kept only when that payment exists. */
  paymentId: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const short = (value: string | null, max: number) => (value === null ? null : value.slice(0, max));

/** Records a delivery; the payment link is set only when that payment exists. */
export async function recordWebhookDelivery(db: Database, d: WebhookDeliveryInput): Promise<void> {
  const paymentId = d.paymentId && UUID.test(d.paymentId) ? d.paymentId : null;
  await db.execute(sql`
    insert into webhook_deliveries (provider, event_id, type, outcome, http_status, detail, payment_id)
    values (${short(d.provider, 40)}, ${short(d.eventId, 200)}, ${short(d.type, 80)}, ${d.outcome}, ${d.httpStatus},
            ${short(d.detail, 200)}, (select id from payments where id = ${paymentId}::uuid))`);
}

/** Rows deleted per statement while pruning (short transactions, no long lock). */
const PRUNE_BATCH = 5000;

/** Deletes the deliveries received before `before`, in batches; answers how many. */
export async function pruneWebhookDeliveries(db: Database, before: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await db
      .delete(webhookDeliveries)
      .where(
        inArray(
          webhookDeliveries.id,
          db
            .select({ id: webhookDeliveries.id })
            .from(webhookDeliveries)
            .where(lt(webhookDeliveries.receivedAt, before))
            .limit(PRUNE_BATCH),
        ),
      )
      .returning({ id: webhookDeliveries.id });
    total += rows.length;
    if (rows.length < PRUNE_BATCH) return total;
  }
}
