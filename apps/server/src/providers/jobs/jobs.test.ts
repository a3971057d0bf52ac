import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, rowsOf, type DatabaseHandle } from '../../db/client.js';
import { messages } from '../../db/schema.js';
import { LocalMediaStorage } from '../storage/local-storage.js';
import { createBot, createChat, createMessage, createPremium, createUser } from '../../../test/factories.js';
import { createTestApp, createTestDatabase } from '../../../test/helpers.js';
import { createJobQueue, PgBossJobQueue, type JobQueue } from './index.js';
import { pgliteExecutor, postgresExecutor, type SqlExecutor } from './sql-executor.js';

const testDb = inject('testDb');
const queues: JobQueue[] = [];
const extraDatabases: DatabaseHandle[] = [];
afterAll(async () => {
  for (const queue of queues.splice(0)) await queue.stop().catch(() => undefined);
  for (const database of extraDatabases.splice(0)) await database.close().catch(() => undefined);
});

/** A queue on the test database; on PostgreSQL a second one has its own pool, like a replica. */
function queue(database: DatabaseHandle, schema = 'pgboss'): JobQueue {
  const jobs = createJobQueue(database, {
    schema,
    poolSize: 3,
    pollingIntervalSeconds: 0.5,
    maintenanceIntervalSeconds: 1,
  });
  queues.push(jobs);
  return jobs;
}

describe('job queue', () => {
  it('retries a failing job with growing delays, then calls onFailed once', async () => {
    const database = await createTestDatabase();
    const jobs = queue(database);
    const attempts: number[] = [];
    const failed: { n: number }[] = [];
    jobs.work<{ n: number }>(
      'flaky',
      async () => {
        attempts.push(Date.now());
        throw new Error('not today');
      },
      { retryLimit: 2, retryDelaySeconds: 1, retryBackoff: true, onFailed: async (data) => void failed.push(data) },
    );
    await jobs.start();
    await jobs.send('flaky', { n: 7 });
    await jobs.idle(['flaky']);
    expect(attempts).toHaveLength(3);
    // Backoff with jitter: ≈ 1–2 s before the first retry, ≈ 2–4 s before the second.
    expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(900);
    expect(attempts[2]! - attempts[1]!).toBeGreaterThanOrEqual(1900);
    expect(failed).toEqual([{ n: 7 }]);
    expect((await jobs.stats()).flaky).toMatchObject({ queued: 0, active: 0, failed: 1 });
  }, 30_000);

  it('keeps one job per singleton key while it is queued or running, across queue instances', async () => {
    const database = await createTestDatabase();
    const second =
      database.raw.kind === 'postgres' ? await openDatabase({ url: database.raw.url, poolSize: 3 }) : database;
    if (second !== database) extraDatabases.push(second);
    const a = queue(database);
    const b = queue(second);
    let runs = 0;
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    a.work<{ key: string }>('once', async () => {
      runs += 1;
      await gate;
    });
    await Promise.all([a.start(), b.start()]);
    // Twenty sends at once from two "replicas": one job.
    const ids = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).send('once', { key: 'k' }, { singletonKey: 'm-1' })),
    );
    expect(ids.filter(Boolean)).toHaveLength(1);
    // Another key is another job.
    expect(await b.send('once', { key: 'other' }, { singletonKey: 'm-2' })).toBeTruthy();
    // Still none while the first one runs.
    const deadline = Date.now() + 10_000;
    while (runs < 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await b.send('once', { key: 'k' }, { singletonKey: 'm-1' })).toBeNull();
    release();
    await a.idle(['once']);
    expect(runs).toBe(2);
    // Ended: the key may be used again.
    expect(await b.send('once', { key: 'k' }, { singletonKey: 'm-1' })).toBeTruthy();
    await a.idle(['once']);
    expect(runs).toBe(3);
  }, 30_000);

  it('aborts a running job at its expiry and retries it', async () => {
    const database = await createTestDatabase();
    const jobs = queue(database);
    const reasons: string[] = [];
    let attempt = 0;
    jobs.work<object>(
      'slow',
      (_data, signal) => {
        attempt += 1;
        if (attempt > 1) return Promise.resolve();
        return new Promise((_, reject) =>
          signal.addEventListener('abort', () => {
            reasons.push((signal.reason as Error).name);
            reject(signal.reason);
          }),
        );
      },
      { expireInSeconds: 1, retryLimit: 1, retryDelaySeconds: 1 },
    );
    await jobs.start();
    await jobs.send('slow', {});
    await jobs.idle(['slow']);
    expect(reasons).toEqual(['TimeoutError']);
    expect(attempt).toBe(2);
    expect((await jobs.stats()).slow).toMatchObject({ queued: 0, active: 0, failed: 0 });
  }, 30_000);
});

describe('stopping', () => {
  it('a poll under way when the queue stops leaves no job active and no statement on a closed pool', async () => {
    const database = await createTestDatabase();
    const raw = database.raw;
    const errors: unknown[] = [];
    const inner: SqlExecutor =
      raw.kind === 'postgres' ? postgresExecutor(raw.url, 3, (e) => errors.push(e)) : pgliteExecutor(raw.client);
    // Once armed, pg-boss's next fetch (the statement that takes jobs) is held until the test
    // releases it, after `stop` began — the window in which a stopping process used to take a
    // job, and run it on a closed pool or leave it 'active' until it expired.
    let armed = false;
    let held: Promise<void> | null = null;
    let release: () => void = () => undefined;
    const executor: SqlExecutor = {
      ...inner,
      executeSql: async (text, values) => {
        if (armed && /skip locked/i.test(text)) {
          armed = false;
          held = new Promise((resolve) => (release = resolve));
          await held;
        }
        return inner.executeSql(text, values);
      },
    };
    const jobs = new PgBossJobQueue(executor, {
      pollingIntervalSeconds: 0.5,
      maintenanceIntervalSeconds: 1,
      onError: (e) => errors.push(e),
    });
    const ran: number[] = [];
    jobs.work<{ n: number }>('late', async (data) => void ran.push(data.n), { retryLimit: 3, retryDelaySeconds: 1 });
    await jobs.start();
    armed = true;
    while (!held) await new Promise((resolve) => setTimeout(resolve, 10));
    // The job is queued while the held poll is on its way to the database: the poll takes it.
    const other = queue(database);
    await other.send('late', { n: 1 });
    const stopping = jobs.stop();
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    await stopping;
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Nothing of the stopping process runs the job, and the job is not left active.
    expect(ran).toEqual([]);
    const states = rowsOf<{ state: string }>(
      await database.db.execute(sql`select state::text as state from pgboss.job where name = 'late'`),
    ).map((r) => r.state);
    expect(states).toHaveLength(1);
    expect(states).not.toContain('active');
    expect(errors.filter((e) => String(e).includes('after calling end'))).toEqual([]);
    // A process that lives runs it.
    const second = queue(database);
    const done: number[] = [];
    second.work<{ n: number }>('late', async (data) => void done.push(data.n), { retryLimit: 3, retryDelaySeconds: 1 });
    await second.start();
    await second.idle(['late'], 20_000);
    expect(done).toEqual([1]);
  }, 40_000);
});

describe.runIf(testDb.kind === 'postgres')('replicas on one PostgreSQL database', () => {
  it('a voice job enqueued on a replica that dies is finished by the other', async () => {
    const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-cluster-'));
    const storage = new LocalMediaStorage(mediaDir);
    // An app to make the user and the message (its queue is in another schema: it takes no job).
    const t = await createTestApp({ storage });
    const account = await createUser(t.app, t.database.db);
    await createPremium(t.database.db, account.user.id);
    const bot = await createBot(t.database.db);
    const chat = await createChat(t.database.db, { userId: account.user.id, botId: bot.id });
    const message = await createMessage(t.database.db, chat, { role: 'bot', text: 'Are you still there?' });
    const schema = 'pgboss_cluster';
    const url = t.database.raw.kind === 'postgres' ? t.database.raw.url : '';

    // Replica 1, in a child process: takes the job, then is killed with SIGKILL mid-job.
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.resolve(import.meta.dirname, '../../../test/fixtures/voice-replica.ts'),
        url,
        schema,
        account.user.id,
        message.id,
        mediaDir,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('taken')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`the replica exited (${code}) before taking the job: ${stderr}`)));
    });
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const before = await t.database.db.select().from(messages).where(eq(messages.id, message.id));
    expect(before[0]!.audioState).toBe('processing');

    // Replica 2: the same queue; the job expires (TTS_TIMEOUT_S + 10 s), is retried here.
    const started = Date.now();
    const other = await createTestApp({
      storage,
      database: t.database,
      jobsSchema: schema,
      env: { TTS_TIMEOUT_S: '10', TTS_RETRY_DELAY_S: '1', JOBS_MAINTENANCE_S: '1' },
      // A quick provider (half a second of a 440 Hz tone), so a loaded machine cannot time it out.
      tts: {
        name: 'tone',
        synthesise: async () => ({
          format: 'pcm16',
          sampleRate: 22_050,
          samples: Int16Array.from({ length: 11_025 }, (_, i) =>
            Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 22_050)),
          ),
        }),
      },
    });
    await other.app.audio.idle();
    const [after] = await t.database.db.select().from(messages).where(eq(messages.id, message.id));
    expect(after!.audioState).toBe('ready');
    expect(await storage.exists(after!.audioKey!)).toBe(true);
    // Within the expiry (12 s), a maintenance round (1 s) and the retry delay (1–2 s).
    expect(Date.now() - started).toBeLessThan(20_000);
    fs.rmSync(mediaDir, { recursive: true, force: true });
  }, 60_000);
});
