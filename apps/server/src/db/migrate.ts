import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { rowsOf, type DatabaseHandle } from './client.js';
import { migrationsDir } from '../lib/paths.js';

/**
 * An arbitrary, fixed key for the advisory lock under which a replica migrates and seeds (the
 * key migrations always used, so older builds starting beside this one wait for it too).
 */
const STARTUP_LOCK_KEY = 727_311_204;

/**
 * Runs `run` while this process holds the startup lock: a session-level
 * `pg_advisory_lock` on one connection of its own (postgres.js pools connections, and a
 * session lock belongs to the connection that took it). Replicas started together on a new
 * database thus migrate and seed one after the other: the first does the work, the others
 * wait, then find it done. The lock ends with `run`, or with the connection if the process
 * dies. `run` is given that connection (migrations use it). PGlite is one process: no lock.
 */
export async function withStartupLock<T>(
  handle: DatabaseHandle,
  run: (session: postgres.Sql | null) => Promise<T>,
): Promise<T> {
  if (handle.raw.kind === 'pglite') return run(null);
  const session = postgres(handle.raw.url, {
    max: 1,
    onnotice: () => {},
    connection: { application_name: 'reverie-startup' },
  });
  try {
    await session`select pg_advisory_lock(${STARTUP_LOCK_KEY})`;
    return await run(session);
  } finally {
    await session`select pg_advisory_unlock(${STARTUP_LOCK_KEY})`.catch(() => {});
    await session.end({ timeout: 5 });
  }
}

/**
 * Applies every pending drizzle-kit migration. Safe to run from several instances at once:
 * it takes the startup lock (`withStartupLock`).
 */
export async function runMigrations(handle: DatabaseHandle): Promise<void> {
  await withStartupLock(handle, (session) => applyMigrations(handle, session));
}

/** Applies the pending migrations; on PostgreSQL through `session`, which holds the startup lock. */
export async function applyMigrations(handle: DatabaseHandle, session: postgres.Sql | null): Promise<void> {
  const migrationsFolder = migrationsDir();
  if (handle.raw.kind === 'pglite') {
    await migratePglite(handle.db as never, { migrationsFolder });
    return;
  }
  if (!session) throw new Error('applyMigrations: PostgreSQL migrates on the startup lock session');
  await migratePostgres(drizzlePostgres(session), { migrationsFolder });
}

/** How many migrations ship with this build. */
export function expectedMigrationCount(): number {
  const journal = path.join(migrationsDir(), 'meta', '_journal.json');
  const parsed = JSON.parse(fs.readFileSync(journal, 'utf8')) as { entries: unknown[] };
  return parsed.entries.length;
}

/** True when every shipped migration has been applied. */
export async function migrationsApplied(handle: DatabaseHandle): Promise<boolean> {
  try {
    const result = await handle.db.execute<{ count: number | string }>(
      sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
    );
    const rows = rowsOf<{ count: number | string }>(result);
    return Number(rows[0]?.count ?? 0) >= expectedMigrationCount();
  } catch {
    return false;
  }
}
