import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { rowsOf, type DatabaseHandle } from './client.js';
import { migrationsDir } from '../lib/paths.js';

/** An arbitrary, fixed key for the advisory lock that serialises concurrent migrators. */
const MIGRATION_LOCK_KEY = 727_311_204;

/** Applies every pending drizzle-kit migration. Safe to run from several instances at once. */
export async function runMigrations(handle: DatabaseHandle): Promise<void> {
  const migrationsFolder = migrationsDir();
  if (handle.raw.kind === 'pglite') {
    await migratePglite(handle.db as never, { migrationsFolder });
    return;
  }
  // A single-connection client holds the advisory lock for the whole run.
  const client = postgres(handle.raw.url, { max: 1, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    await migratePostgres(drizzlePostgres(client), { migrationsFolder });
  } finally {
    await client`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.catch(() => {});
    await client.end({ timeout: 5 });
  }
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
