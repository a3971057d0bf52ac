import { Registry } from 'prom-client';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestDatabase } from '../../test/helpers.js';
import { createJobQueue, type JobQueue } from '../providers/jobs/index.js';
import { registerJobMetrics } from './jobs-metrics.js';

let jobs: JobQueue | undefined;
afterAll(async () => jobs?.stop());

describe('job metrics', () => {
  it('show queued, active and failed jobs per queue and count failed attempts', async () => {
    const database = await createTestDatabase();
    jobs = createJobQueue(database, { pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1 });
    const registry = new Registry();
    registerJobMetrics(registry, jobs);
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    jobs.work<{ n: number }>(
      'metrics-test',
      async ({ n }) => {
        if (n === 1) throw new Error('no luck');
        await gate;
      },
      { retryLimit: 0 },
    );
    await jobs.start();
    await jobs.send('metrics-test', { n: 1 });
    await jobs.send('metrics-test', { n: 2 });
    await jobs.send('metrics-test', { n: 3 }, { startAfterSeconds: 3600 });
    const deadline = Date.now() + 20_000;
    let text = '';
    while (Date.now() < deadline) {
      text = await registry.metrics();
      if (
        text.includes('jobs{queue="metrics-test",state="failed"} 1') &&
        text.includes('jobs{queue="metrics-test",state="active"} 1')
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(text).toContain('jobs{queue="metrics-test",state="queued"} 1');
    expect(text).toContain('jobs{queue="metrics-test",state="active"} 1');
    expect(text).toContain('jobs{queue="metrics-test",state="failed"} 1');
    expect(text).toContain('job_attempts_failed_total{queue="metrics-test"} 1');
    release();
  }, 30_000);

  it("are on the app's /metrics: the voice and mail queues", async () => {
    const { app } = await createTestApp({ env: { SMTP_URL: 'smtp://127.0.0.1:9' } });
    const response = await app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    for (const queue of ['voice', 'voice__failed', 'mail', 'mail__failed']) {
      for (const state of ['queued', 'active', 'failed']) {
        expect(response.body).toContain(`jobs{queue="${queue}",state="${state}"} 0`);
      }
    }
    expect(response.body).toContain('# TYPE job_attempts_failed_total counter');
  });
});
