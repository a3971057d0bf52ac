import PgBoss from 'pg-boss';
import type { JobHandler, JobQueue, QueueStats, SendOptions, WorkOptions } from './job-queue.js';
import type { SqlExecutor } from './sql-executor.js';

export interface PgBossJobQueueOptions {
  /** The PostgreSQL schema of the queue's tables (`pgboss`); tests give apps that share a database their own. */
  schema?: string;
  /** Seconds between maintenance rounds: expiry of jobs whose replica died, archiving, deletion. */
  maintenanceIntervalSeconds?: number;
  /** Seconds between a worker's looks for new jobs (jobs sent by this process are taken at once). */
  pollingIntervalSeconds?: number;
  /** Errors of the queue itself (not of jobs): lost connections, maintenance. */
  onError?: (error: unknown) => void;
}

interface Registration {
  name: string;
  handler: JobHandler<object>;
  options: WorkOptions<object>;
}

const DEFAULTS = { concurrency: 1, retryLimit: 2, retryDelaySeconds: 5, retryBackoff: true, expireInSeconds: 900 };
/** The queue that receives a copy of a job that failed for good, for `onFailed`. */
const failedQueue = (name: string) => `${name}__failed`;
const SCHEMA = /^[a-z_][a-z0-9_]{0,48}$/;

/**
 * pg-boss 10 (jobs as rows, taken with `FOR UPDATE SKIP LOCKED`) on PostgreSQL or PGlite,
 * through `SqlExecutor`. Per queue: `concurrency` pg-boss workers of one job each; an
 * attempt's signal aborts at its expiry; a failure's copy goes to `<name>__failed`, whose
 * worker calls `onFailed`.
 */
export class PgBossJobQueue implements JobQueue {
  readonly name = 'pg-boss';
  private boss: PgBoss | null = null;
  private starting: Promise<void> | null = null;
  private stopped = false;
  private readonly schema: string;
  private readonly registrations: Registration[] = [];
  private readonly workers = new Map<string, string[]>();
  private readonly queues = new Set<string>();
  private readonly running = new Set<AbortController>();
  private readonly attemptListeners: ((name: string) => void)[] = [];
  /** pg-boss's statements under way, and the handlers running: what `stop` waits for. */
  private inFlight = 0;
  private handlers = 0;

  constructor(
    private readonly executor: SqlExecutor,
    private readonly options: PgBossJobQueueOptions = {},
  ) {
    this.schema = options.schema ?? 'pgboss';
    if (!SCHEMA.test(this.schema)) throw new Error(`invalid job queue schema name: ${this.schema}`);
  }

  work<T extends object>(name: string, handler: JobHandler<T>, options: WorkOptions<T> = {}): void {
    if (this.registrations.some((r) => r.name === name)) throw new Error(`a worker for ${name} is already registered`);
    const registration = { name, handler, options } as unknown as Registration;
    this.registrations.push(registration);
    // Registered after the start: begin at once.
    if (this.boss && !this.stopped) void this.register(this.boss, registration).catch((e) => this.reportError(e));
  }

  start(): Promise<void> {
    if (this.stopped && !this.starting) return Promise.reject(new Error('the job queue is stopped'));
    this.starting ??= this.open();
    return this.starting;
  }

  private async open(): Promise<void> {
    const boss = new PgBoss({
      db: {
        executeSql: (text, values) => this.track(this.executor.executeSql(text, values)) as Promise<{ rows: never[] }>,
      },
      schema: this.schema,
      schedule: false,
      maintenanceIntervalSeconds: this.options.maintenanceIntervalSeconds ?? 30,
      // Finished jobs (mail jobs hold an address and a text) go to the archive after an hour
      // and are deleted a day later; failed ones stay a day for /metrics and the operator.
      archiveCompletedAfterSeconds: 3600,
      archiveFailedAfterSeconds: 86_400,
      deleteAfterSeconds: 86_400,
    });
    boss.on('error', (error) => this.reportError(error));
    await boss.start();
    this.boss = boss;
    for (const registration of this.registrations) await this.register(boss, registration);
  }

  private track<T>(query: Promise<T>): Promise<T> {
    this.inFlight += 1;
    return query.finally(() => {
      this.inFlight -= 1;
    });
  }

  private reportError(error: unknown) {
    if (!this.stopped) this.options.onError?.(error);
  }

  private async ensureQueue(boss: PgBoss, name: string, options: Omit<PgBoss.Queue, 'name'> = {}) {
    // createQueue keeps an existing queue's settings; updateQueue brings them up to date.
    await boss.createQueue(name, { name, ...options });
    if (Object.keys(options).length) await boss.updateQueue(name, { name, ...options });
    this.queues.add(name);
  }

  private async register(boss: PgBoss, { name, handler, options }: Registration) {
    const settings = { ...DEFAULTS, ...options };
    const { onFailed } = options;
    if (onFailed) {
      await this.ensureQueue(boss, failedQueue(name), { retryLimit: 5, retryDelay: 5, retryBackoff: true });
    }
    await this.ensureQueue(boss, name, {
      retryLimit: settings.retryLimit,
      retryDelay: settings.retryDelaySeconds,
      retryBackoff: settings.retryBackoff,
      expireInSeconds: settings.expireInSeconds,
      ...(onFailed ? { deadLetter: failedQueue(name) } : {}),
    });
    for (let i = 0; i < settings.concurrency; i++) {
      await this.addWorker(boss, name, settings.expireInSeconds, handler);
    }
    if (onFailed) {
      await this.addWorker(boss, failedQueue(name), 60, (data, _signal, job) => onFailed(data, job));
    }
  }

  private async addWorker(boss: PgBoss, name: string, expireInSeconds: number, handler: JobHandler<object>) {
    const id = await boss.work<object>(
      name,
      { batchSize: 1, pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? 2 },
      async ([job]) => {
        if (job) await this.run(name, job, expireInSeconds, handler);
      },
    );
    this.workers.set(name, [...(this.workers.get(name) ?? []), id]);
  }

  private async run(name: string, job: PgBoss.Job<object>, expireInSeconds: number, handler: JobHandler<object>) {
    // A poll that was under way when `stop` began can still bring a job: it is failed at once
    // (retried by a replica that lives, or after the restart) instead of starting now.
    if (this.stopped) throw new Error('shutting down');
    this.handlers += 1;
    const controller = new AbortController();
    this.running.add(controller);
    const timer = setTimeout(
      () => controller.abort(new DOMException('The job expired', 'TimeoutError')),
      expireInSeconds * 1000,
    );
    try {
      await handler(job.data, controller.signal, { id: job.id, name });
    } catch (error) {
      for (const listener of this.attemptListeners) listener(name);
      // pg-boss stores the error with the job: only its code or kind, never a message that
      // might quote an address or a text (the handler logs what it needs).
      throw new Error(errorCode(error));
    } finally {
      clearTimeout(timer);
      this.running.delete(controller);
      this.handlers -= 1;
    }
  }

  async send<T extends object>(name: string, data: T, options: SendOptions = {}): Promise<string | null> {
    if (this.stopped) throw new Error('the job queue is stopped');
    await this.start();
    const boss = this.boss!;
    if (!this.queues.has(name)) await this.ensureQueue(boss, name);
    const startAfter = options.startAfterSeconds;
    const key = options.singletonKey;
    let id: string | null;
    if (key === undefined) {
      id = await boss.send(name, data, { startAfter });
    } else {
      // One job per key while one is queued, waiting or running. Most calls find one already
      // (a long chat asks for its summary after every reply until it runs): one statement
      // answers them. Only when none is found is it checked again and inserted in one
      // transaction under a lock on the key, so two replicas cannot both add one.
      const pending = `select 1 from ${this.schema}.job where name = $1 and singleton_key = $2 and state < 'completed' limit 1`;
      if ((await this.executor.executeSql(pending, [name, key])).rows.length > 0) return null;
      id = await this.executor.transaction(async (executeSql) => {
        await executeSql('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`${this.schema}:${name}:${key}`]);
        if ((await executeSql(pending, [name, key])).rows.length > 0) return null;
        return boss.send(name, data, {
          startAfter,
          singletonKey: key,
          db: { executeSql: (text, values) => executeSql(text, values) as Promise<{ rows: never[] }> },
        });
      });
    }
    // Workers of this process look at once instead of at their next poll.
    if (id) for (const worker of this.workers.get(name) ?? []) boss.notifyWorker(worker);
    return id;
  }

  async stats(): Promise<Record<string, QueueStats>> {
    const result: Record<string, QueueStats> = {};
    for (const name of this.queues) result[name] = { queued: 0, active: 0, failed: 0 };
    if (!this.boss || this.stopped) return result;
    const { rows } = await this.executor.executeSql(
      `select name, state::text as state, count(*)::int as n from ${this.schema}.job
       where state in ('created', 'retry', 'active', 'failed') group by name, state`,
    );
    for (const row of rows as { name: string; state: string; n: number | string }[]) {
      const stats = (result[row.name] ??= { queued: 0, active: 0, failed: 0 });
      const n = Number(row.n);
      if (row.state === 'active') stats.active += n;
      else if (row.state === 'failed') stats.failed += n;
      else stats.queued += n;
    }
    return result;
  }

  onAttemptFailed(listener: (name: string) => void): void {
    this.attemptListeners.push(listener);
  }

  async idle(names?: string[], timeoutMs = 30_000): Promise<void> {
    await this.start();
    const watched = names ? names.flatMap((n) => [n, failedQueue(n)]) : null;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const stats = await this.stats();
      const busy = Object.entries(stats).some(
        ([name, s]) => (!watched || watched.includes(name)) && s.queued + s.active > 0,
      );
      if (!busy) return;
      if (Date.now() > deadline) throw new Error(`jobs still queued after ${timeoutMs} ms`);
      for (const ids of this.workers.values()) for (const id of ids) this.boss?.notifyWorker(id);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    try {
      await this.starting?.catch(() => undefined);
      for (const controller of this.running) controller.abort(new Error('shutting down'));
      // Running jobs end (aborted) and are failed, so they are retried by a replica that lives.
      await this.boss?.stop({ graceful: true, wait: true, close: false, timeout: 10_000 });
      // pg-boss's stop does not wait for a poll already sent: that statement may take a job
      // (state 'active'), and closing the pool under it would leave the job active until it
      // expires and the pool's end reported as an unhandled error. Wait until pg-boss's
      // statements and the handlers are done (such a job is failed, so it is retried).
      const deadline = Date.now() + 10_000;
      while ((this.inFlight > 0 || this.handlers > 0) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await this.executor.close();
    }
  }
}

function errorCode(error: unknown): string {
  if (error && typeof error === 'object') {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && /^[\w.-]{1,64}$/.test(code)) return code;
    const name = (error as { name?: unknown }).name;
    if (typeof name === 'string') return name;
  }
  return 'job_failed';
}
