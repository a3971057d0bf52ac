import type { Core } from '../../core.js';
import { defineModule } from '../../lib/module.js';
import { billingRoutes } from './billing.routes.js';
import { BillingConsole } from './billing.console.js';
import { BillingService } from './billing.service.js';
import { scheduleWebhookDeliveryPruning } from './webhook-deliveries.pruning.js';

export type BillingModuleDeps = Pick<Core, 'config' | 'db' | 'payments' | 'jobs' | 'log'>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Desires, premium and payments; other modules are given it (or a part of it) in app.ts. */
    billing: BillingService;
    /** What the admin console does with desires (adjustments, the ledger check). */
    billingConsole: BillingConsole;
  }
}

/**
 * The billing module: plans, checkouts (and the sandbox's), subscriptions, the daily claim,
 * payment webhooks, and the hourly pruning of recorded webhook deliveries.
 */
export const billingModule = defineModule<BillingModuleDeps>('billing', async (app, deps) => {
  const { config, jobs, log } = deps;
  const service = new BillingService({ db: deps.db, payments: deps.payments, publicUrl: config.PUBLIC_URL });
  app.decorate('billing', service);
  app.decorate('billingConsole', new BillingConsole({ db: deps.db }));
  await app.register(billingRoutes, { service, providers: deps.payments });
  // Webhook deliveries are kept WEBHOOK_DELIVERIES_RETENTION_DAYS: an hourly durable job, one
  // per hour for the cluster (webhook-deliveries.pruning.ts).
  const pruning = scheduleWebhookDeliveryPruning({
    service,
    jobs,
    retentionDays: config.WEBHOOK_DELIVERIES_RETENTION_DAYS,
    log,
  });
  app.addHook('onReady', async () => {
    await pruning.scheduleNext().catch((error: unknown) => {
      log.warn({ err: error }, 'could not schedule the pruning of webhook deliveries');
    });
  });
});

export { BillingService, type ProviderErrorLog } from './billing.service.js';
export type { BillingProfile } from './billing.presenter.js';
/** A subscription as its subscriber sees it (the admin console shows the same dates). */
export { presentSubscriptionDetail as presentSubscriptionView } from './billing.presenter.js';
/** The queue of the pruning job (the admin console's tests wait on it). */
export { WEBHOOK_PRUNE_QUEUE } from './webhook-deliveries.pruning.js';
/**
 * Desires move and premium is read on the `db` the caller gives, which may be its own
 * transaction: a picture's unblur or a transform debits in the same transaction as what it
 * pays for, and the admin console adjusts a balance in the transaction of its audit record.
 */
export { hasPremium } from './premium.js';
export { adjustDesires, creditDesires, debitDesires } from './ledger.js';
/** The balance (read inside a caller's transaction) and the ledger invariant (admin console, tests). */
export { findLedgerMismatches, readBalance } from './ledger.repository.js';
