import type { AdminLedgerCheck, AdminPaymentPage, AdminWebhookPage } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { decodeCursor, keysetPage } from '../../lib/cursor.js';
import { findLedgerMismatches } from '../billing/index.js';
import { listDeliveries } from './payments.repository.js';
import { countUsers, emailsOf, listPayments } from './users.repository.js';
import { presentPayment } from './users.presenter.js';

const iso = (value: Date | string) => new Date(value).toISOString();

export async function listPaymentsPage(
  db: Database,
  query: {
    size: number;
    c?: string;
    user?: string;
    status?: 'pending' | 'paid' | 'failed';
    provider?: 'sandbox' | 'stripe' | 'nowpayments';
  },
): Promise<AdminPaymentPage> {
  const after = decodeCursor(query.c, ['iso', 'uuid'] as const);
  const rows = await listPayments(db, {
    size: query.size + 1,
    after: after ? { createdAt: after[0], id: after[1] } : null,
    userId: query.user,
    status: query.status,
    provider: query.provider,
  });
  return keysetPage(rows, query.size, presentPayment, (last) => [last.cursorAt, last.id]);
}

export async function listWebhookDeliveries(
  db: Database,
  query: {
    size: number;
    c?: string;
    outcome?: 'processed' | 'duplicate' | 'ignored' | 'rejected' | 'failed';
    provider?: string;
  },
): Promise<AdminWebhookPage> {
  const after = decodeCursor(query.c, ['iso', 'int'] as const);
  const rows = await listDeliveries(db, {
    size: query.size + 1,
    after: after ? { receivedAt: after[0], id: after[1] } : null,
    outcome: query.outcome,
    provider: query.provider,
  });
  return keysetPage(
    rows,
    query.size,
    (d) => ({
      id: Number(d.id),
      provider: d.provider,
      event_id: d.eventId,
      type: d.type,
      outcome: d.outcome,
      http_status: d.httpStatus,
      detail: d.detail,
      payment_id: d.paymentId,
      received_at: iso(d.receivedAt),
    }),
    (last) => [last.cursorAt, Number(last.id)],
  );
}

/** Every balance against the sum of its ledger entries (the billing module's invariant). */
export async function checkLedger(db: Database): Promise<AdminLedgerCheck> {
  const mismatches = await findLedgerMismatches(db);
  const emails = await emailsOf(
    db,
    mismatches.map((m) => m.user_id),
  );
  return {
    checked_users: await countUsers(db),
    checked_at: new Date().toISOString(),
    mismatches: mismatches.map((m) => ({
      user_id: m.user_id,
      email: emails.get(m.user_id) ?? null,
      balance: Number(m.num_tokens),
      ledger_sum: Number(m.ledger_sum),
    })),
  };
}
