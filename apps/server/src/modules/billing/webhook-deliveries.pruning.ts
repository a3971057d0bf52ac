import type { JobQueue } from '../../providers/jobs/index.js';
import { schedulePeriodicJob } from '../../providers/jobs/periodic.js';
import type { BillingService } from './billing.service.js';

/** The durable job that deletes old webhook deliveries. */
export const WEBHOOK_PRUNE_QUEUE = 'webhook-deliveries-prune';

export interface WebhookPruningOptions {
  service: Pick<BillingService, 'pruneWebhookDeliveries'>;
  jobs: JobQueue;
  /** WEBHOOK_DELIVERIES_RETENTION_DAYS. */
  retentionDays: number;
  log: { info(fields: object, message: string): void };
}

/**
 * Keeps `webhook_deliveries` to its retention (docs/operations.md "Webhook deliveries
 * retention"): an hourly durable job, one per hour for the cluster (`schedulePeriodicJob`),
 * deletes what is older than the retention.
 */
export function scheduleWebhookDeliveryPruning(options: WebhookPruningOptions): { scheduleNext(): Promise<void> } {
  return schedulePeriodicJob(options.jobs, WEBHOOK_PRUNE_QUEUE, {
    everyS: 3600,
    run: async () => {
      const before = new Date(Date.now() - options.retentionDays * 86_400_000);
      const deleted = await options.service.pruneWebhookDeliveries(before);
      if (deleted) options.log.info({ deleted }, 'old webhook deliveries deleted');
    },
  });
}
