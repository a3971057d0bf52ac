import fp from 'fastify-plugin';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { JobQueue } from '../providers/jobs/index.js';

/**
 * The job queue in the app: its figures on `/metrics` (after `metricsPlugin`), and its workers
 * started once every module has registered its handlers (the app's onReady). They stop in the
 * app's last preClose hook, which app.ts adds after every module's.
 */
export const jobsPlugin = fp<{ jobs: JobQueue }>(
  async (app, { jobs }) => {
    registerJobMetrics(app.metrics, jobs);
    app.addHook('onReady', async () => jobs.start());
  },
  { name: 'jobs', dependencies: ['metrics'] },
);

/**
 * The job queue on `/metrics` (docs/ARCHITECTURE.md "Background jobs"):
 *
 * - `jobs{queue, state}` (gauge): jobs per queue that are `queued` (new or waiting for a
 *   retry), `active`, or `failed` for good and still kept; read from the database at each
 *   scrape, so every replica reports the whole installation's queues.
 * - `job_attempts_failed_total{queue}` (counter): failed attempts (each one retried or not) in
 *   this process.
 */
export function registerJobMetrics(registry: Registry, jobs: JobQueue): void {
  const STATES = ['queued', 'active', 'failed'] as const;
  new Gauge({
    name: 'jobs',
    help: 'Background jobs per queue and state (queued: new or waiting for a retry; failed: retries used up)',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      let stats: Awaited<ReturnType<JobQueue['stats']>>;
      try {
        stats = await jobs.stats();
      } catch {
        return; // the database is unreachable: /metrics still answers, without fresh figures
      }
      this.reset();
      for (const [queue, counts] of Object.entries(stats)) {
        for (const state of STATES) this.set({ queue, state }, counts[state]);
      }
    },
  });
  const failures = new Counter({
    name: 'job_attempts_failed_total',
    help: 'Failed attempts of background jobs in this process (retried or final)',
    labelNames: ['queue'] as const,
    registers: [registry],
  });
  jobs.onAttemptFailed((queue) => failures.inc({ queue }));
}
