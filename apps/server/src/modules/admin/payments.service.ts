import type { AdminLedgerCheck, AdminPaymentPage, AdminWebhookPage } from '@reverie/shared';
import { decodeCursor, keysetPage } from '../../lib/cursor.js';
import type { AdminDeps } from './admin-deps.js';
import { listDeliveries } from './payments.repository.js';
import { countUsers, emailsOf, listPayments } from './users.repository.js';
import { presentWebhookDelivery } from './payments.presenter.js';
import { presentPayment } from './users.presenter.js';

/** The Payments and ledger section: payments, webhook deliveries, the ledger invariant. */
export class AdminPaymentsService {
  constructor(private readonly deps: Pick<AdminDeps, 'db' | 'billing'>) {}

  async listPayments(query: {
    size: number;
    c?: string;
    user?: string;
    status?: 'pending' | 'paid' | 'failed';
    provider?: 'sandbox' | 'stripe' | 'nowpayments';
  }): Promise<AdminPaymentPage> {
    const after = decodeCursor(query.c, ['iso', 'uuid'] as const);
    const rows = await listPayments(this.deps.db, {
      size: query.size + 1,
      after: after ? { createdAt: after[0], id: after[1] } : null,
      userId: query.user,
      status: query.status,
      provider: query.provider,
    });
    return keysetPage(rows, query.size, presentPayment, (last) => [last.cursorAt, last.id]);
  }

  async listWebhookDeliveries(query: {
    size: number;
    c?: string;
    outcome?: 'processed' | 'duplicate' | 'ignored' | 'rejected' | 'failed';
    provider?: string;
  }): Promise<AdminWebhookPage> {
    const after = decodeCursor(query.c, ['iso', 'int'] as const);
    const rows = await listDeliveries(this.deps.db, {
      size: query.size + 1,
      after: after ? { receivedAt: after[0], id: after[1] } : null,
      outcome: query.outcome,
      provider: query.provider,
    });
    return keysetPage(rows, query.size, presentWebhookDelivery, (last) => [last.cursorAt, Number(last.id)]);
  }

  /** Every balance against the sum of its ledger entries (the billing module's invariant). */
  async checkLedger(): Promise<AdminLedgerCheck> {
    const { db } = this.deps;
    const mismatches = await this.deps.billing.findLedgerMismatches();
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
}
