import type { PGlite, Transaction } from '@electric-sql/pglite';
import pg from 'pg';

export type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

/** How the job queue reaches its database: plain statements and transactions. */
export interface SqlExecutor {
  executeSql: ExecuteSql;
  /** Runs `fn` in one transaction (one connection), committed when it resolves. */
  transaction<R>(fn: (executeSql: ExecuteSql) => Promise<R>): Promise<R>;
  close(): Promise<void>;
}

/**
 * PGlite, shared with the app (one connection, queries in turn). pg-boss sends several
 * statements in one text without values (its locked maintenance commands, its schema): those
 * go through `exec`, the rest through `query` with parameters.
 */
export function pgliteExecutor(client: PGlite): SqlExecutor {
  const run =
    (target: PGlite | Transaction): ExecuteSql =>
    async (text, values) => {
      if (values && values.length > 0) return target.query(text, values);
      try {
        const results = await target.exec(text);
        return results[results.length - 1] ?? { rows: [] };
      } catch (error) {
        // A text of pg-boss's own `BEGIN; …; COMMIT;` that failed half-way leaves the one
        // connection in an aborted transaction: every later query of the app would fail.
        if (target === client) await client.exec('rollback').catch(() => undefined);
        throw error;
      }
    };
  return {
    executeSql: run(client),
    transaction: (fn) => client.transaction((tx) => fn(run(tx))),
    // The app's database: closed by its owner.
    close: async () => {},
  };
}

/**
 * PostgreSQL through a small node-postgres pool of the queue's own (pg-boss is written for
 * node-postgres: its types and multi-statement texts); the app's queries keep postgres.js.
 */
export function postgresExecutor(
  url: string,
  max: number,
  onError: (error: unknown) => void,
  idleTimeoutMillis = 10_000,
): SqlExecutor {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis, application_name: 'reverie-jobs' });
  pool.on('error', onError);
  return {
    executeSql: (text, values) => pool.query(text, values as unknown[]),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await fn((text, values) => client.query(text, values as unknown[]));
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
