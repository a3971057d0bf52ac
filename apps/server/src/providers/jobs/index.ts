import type { DatabaseHandle } from '../../db/client.js';
import type { JobQueue } from './job-queue.js';
import { PgBossJobQueue, type PgBossJobQueueOptions } from './pg-boss.provider.js';
import { pgliteExecutor, postgresExecutor } from './sql-executor.js';

export type { JobHandler, JobInfo, JobQueue, QueueStats, SendOptions, WorkOptions } from './job-queue.js';
export { PgBossJobQueue } from './pg-boss.provider.js';

/**
 * Durable background jobs: pg-boss on the app's database, PostgreSQL (its own small
 * node-postgres pool) or PGlite (the app's client). Nothing starts until `start()`.
 */
export function createJobQueue(
  database: Pick<DatabaseHandle, 'raw'>,
  options: PgBossJobQueueOptions & { poolSize?: number; idleTimeoutMillis?: number } = {},
): JobQueue {
  const executor =
    database.raw.kind === 'postgres'
      ? postgresExecutor(
          database.raw.url,
          options.poolSize ?? 4,
          (error) => options.onError?.(error),
          options.idleTimeoutMillis,
        )
      : pgliteExecutor(database.raw.client);
  return new PgBossJobQueue(executor, options);
}
