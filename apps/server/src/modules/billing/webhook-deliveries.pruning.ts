import type { Database } from '../../db/client.js';
import type { JobQueue } from '../../providers/jobs/index.js';
import { pruneWebhookDeliveries } from './webhook-deliveries.repository.js';

/** The durable job that deletes old webhook deliveries. */
export const WEBHOOK_PRUNE_QUEUE = 'webhook-deliveries-prune';

/** How often it runs. */
const PRUNE_EVERY_S = 3600;

export interface WebhookPruningOptions {
  db: Database;
  jobs: JobQueue;
  /** WEBHOOK_DELIVERIES_RETENTION_DAYS. */
  retentionDays: number;
  log: { info(fields: object, message: string): void };
  /** Seconds between runs (tests shorten it). */
  everyS?: number;
}

/**
 * Keeps `webhook_deliveries` to its retention (docs/operations.md "Webhook deliveries"): a
 * durable job per period, named by the period it runs in (`singletonKey`), so however many
 * replicas start or finish a run, one job waits for each period and one replica runs it. Each
 * run deletes what is older than the retention and queues the next period's job; a replica
 * that starts queues it too (the same key: nothing is added when one waits already).
 */
export function scheduleWebhookDeliveryPruning(options: WebhookPruningOptions): { scheduleNext(): Promise<void> } {
  const every = options.everyS ?? PRUNE_EVERY_S;
  const scheduleNext = async () => {
    const now = Date.now() / 1000;
    const next = Math.floor(now / every) + 1;
    await options.jobs.send(
      WEBHOOK_PRUNE_QUEUE,
      { period: next },
      { singletonKey: `period-${next}`, startAfterSeconds: Math.max(1, Math.ceil(next * every - now)) },
    );
  };
  options.jobs.work<{ period: number }>(
    WEBHOOK_PRUNE_QUEUE,
    async () => {
      const before = new Date(Date.now() - options.retentionDays * 86_400_000);
      const deleted = await pruneWebhookDeliveries(options.db, before);
      if (deleted) options.log.info({ deleted }, 'old webhook deliveries deleted');
      await scheduleNext();
    },
    // A run that failed for good still hands on to the next period.
    { concurrency: 1, retryLimit: 3, retryDelaySeconds: 60, expireInSeconds: 600, onFailed: scheduleNext },
  );
  return { scheduleNext };
}
