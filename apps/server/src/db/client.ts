import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { acquirePgliteLock } from './pglite-lock.js';
import * as schema from './schema.js';

export type Schema = typeof schema;
/** The one database type services and repositories see, whatever the driver. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export interface DatabaseHandle {
  db: Database;
  driver: 'pglite' | 'postgres';
  /** Answers true when a trivial query succeeds. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /** The raw client, for migrations and test helpers. */
  raw: { kind: 'pglite'; client: PGlite } | { kind: 'postgres'; client: postgres.Sql; url: string };
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; when absent PGlite is used. */
  url?: string;
  /** PGlite data directory; `memory://` keeps it in memory. */
  pgliteDir?: string;
  /** A PGlite instance made elsewhere (tests clone a migrated template). */
  pglite?: PGlite;
  poolSize?: number;
  /**
   * Seconds after which an idle PostgreSQL connection is closed (postgres.js `idle_timeout`);
   * none by default. The tests set it: many test databases at once stay under the server's
   * `max_connections` (docs/testing.md "Why it is fast").
   */
  idleTimeoutSeconds?: number;
  /**
   * Who opens a PGlite directory (`server`, `admin:create`, …), written in its lock file: no
   * second process may open a directory another holds (`pglite-lock.ts`).
   */
  role?: string;
  /**
   * Told the text and parameters of every statement run through `db` (drizzle's logger): tests count the
   * statements of a send (`modules/chats/send-statements.test.ts`). The raw client's own
   * queries (migrations, the job queue on PGlite) are not told.
   */
  logQuery?: (query: string, params: unknown[]) => void;
}

/**
 * The extensions every PGlite instance loads (PostgreSQL ships them in contrib): `pg_trgm`,
 * the trigram similarity that corrects mistyped search words (docs/characters.md "Search").
 * Whoever makes a PGlite instance passes them (`PGlite.create({ extensions: PGLITE_EXTENSIONS })`).
 */
export const PGLITE_EXTENSIONS = { pg_trgm };

/** Opens PGlite (embedded default) or a PostgreSQL pool when a URL is given. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.url) {
    const client = postgres(options.url, {
      max: options.poolSize ?? 10,
      ...(options.idleTimeoutSeconds ? { idle_timeout: options.idleTimeoutSeconds } : {}),
      onnotice: () => {},
      connection: { application_name: 'reverie' },
    });
    const db = drizzlePostgres(client, { schema, logger: queryLogger(options) }) as unknown as Database;
    return {
      db,
      driver: 'postgres',
      raw: { kind: 'postgres', client, url: options.url },
      ping: () => pingDatabase(db),
      close: () => client.end({ timeout: 5 }),
    };
  }
  let client = options.pglite;
  let release = () => {};
  if (!client) {
    const dir = options.pgliteDir ?? 'memory://';
    if (!dir.startsWith('memory://')) {
      release = acquirePgliteLock(dir, options.role ?? 'server');
      try {
        await initPgliteDir(dir);
        client = await PGlite.create(dir, { extensions: PGLITE_EXTENSIONS });
      } catch (error) {
        release();
        throw error;
      }
    } else client = await PGlite.create(dir, { extensions: PGLITE_EXTENSIONS });
  }
  yieldBeforeQueries(client);
  const db = drizzlePglite(client, { schema, logger: queryLogger(options) }) as unknown as Database;
  const pg = client;
  return {
    db,
    driver: 'pglite',
    raw: { kind: 'pglite', client: pg },
    ping: () => pingDatabase(db),
    close: async () => {
      try {
        if (!pg.closed) await pg.close();
      } finally {
        release();
      }
    },
  };
}

const yielding = new WeakSet<PGlite>();

/** Drizzle's logger for `logQuery`; none (drizzle's default) without it. */
function queryLogger(options: DatabaseOptions): { logQuery(query: string, params: unknown[]): void } | undefined {
  const { logQuery } = options;
  return logQuery ? { logQuery: (query, params) => logQuery(query, params) } : undefined;
}

/**
 * PGlite runs every query on the event loop, and hands its lock from one query to the next
 * through promises: under a burst (200 chat replies starting at once) the chain of queries
 * never lets the event loop reach its I/O phase, and a request as cheap as `/api/health`
 * waited seconds. Each query first yields one turn of the event loop (`setImmediate`), so
 * waiting requests are read and answered between queries.
 */
function yieldBeforeQueries(client: PGlite): void {
  // A second handle on the same instance (a test counting statements) yields once, not twice.
  if (yielding.has(client)) return;
  yielding.add(client);
  const query = client.query.bind(client);
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  client.query = (async (...args: Parameters<PGlite['query']>) => {
    await turn();
    return query(...args);
  }) as PGlite['query'];
}

/**
 * Creates a new PGlite data directory atomically: initdb runs in a temporary folder that is
 * renamed into place only when complete, so a first start interrupted half-way never leaves
 * a broken database behind (PGlite would hang opening it).
 */
async function initPgliteDir(dir: string): Promise<void> {
  const target = path.resolve(dir);
  if (fs.existsSync(target)) return;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  // Leftovers of interrupted first starts.
  for (const name of fs.readdirSync(path.dirname(target))) {
    if (name.startsWith(`${path.basename(target)}.init-`)) {
      fs.rmSync(path.join(path.dirname(target), name), { recursive: true, force: true });
    }
  }
  const staging = `${target}.init-${process.pid}`;
  const fresh = await PGlite.create(staging);
  await fresh.close();
  fs.renameSync(staging, target);
}

async function pingDatabase(db: Database): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

/** Rows of a `db.execute` result: postgres-js answers an array, PGlite `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
