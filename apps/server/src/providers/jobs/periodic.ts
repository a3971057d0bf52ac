import type { JobQueue } from './job-queue.js';

export interface PeriodicJobOptions {
  /** Seconds between runs. */
  everyS: number;
  /** The work of one run (a throw is retried, like any job). */
  run: () => Promise<void>;
  /** Seconds one run may take (default 600). */
  expireInSeconds?: number;
}

/**
 * Periodic work on the durable job queue, once per period for the whole cluster: each period
 * has one job, named by the period (`singletonKey`), so however many replicas start or finish a
 * run only one job waits for a period and one replica runs it. A run queues the next period's
 * job; so does every replica when it starts (nothing is added when one waits already), and a
 * run whose retries are used up. Call `scheduleNext` once the queue has started.
 */
export function schedulePeriodicJob(
  jobs: JobQueue,
  queue: string,
  options: PeriodicJobOptions,
): { scheduleNext(): Promise<void> } {
  const every = options.everyS;
  const scheduleNext = async () => {
    const now = Date.now() / 1000;
    const next = Math.floor(now / every) + 1;
    await jobs.send(
      queue,
      { period: next },
      { singletonKey: `period-${next}`, startAfterSeconds: Math.max(1, Math.ceil(next * every - now)) },
    );
  };
  jobs.work<{ period: number }>(
    queue,
    async () => {
      await options.run();
      await scheduleNext();
    },
    {
      concurrency: 1,
      retryLimit: 3,
      retryDelaySeconds: 60,
      expireInSeconds: options.expireInSeconds ?? 600,
      onFailed: scheduleNext,
    },
  );
  return { scheduleNext };
}
