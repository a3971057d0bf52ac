import type { AdminWebhookPage } from '@reverie/shared';
import type { WebhookDeliveryRow } from './payments.repository.js';

/** A payment webhook delivery and its outcome, as the console lists it. */
export function presentWebhookDelivery(d: WebhookDeliveryRow): AdminWebhookPage['results'][number] {
  return {
    id: Number(d.id),
    provider: d.provider,
    event_id: d.eventId,
    type: d.type,
    outcome: d.outcome,
    http_status: d.httpStatus,
    detail: d.detail,
    payment_id: d.paymentId,
    received_at: new Date(d.receivedAt).toISOString(),
  };
}
