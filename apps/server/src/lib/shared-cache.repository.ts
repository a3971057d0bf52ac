import { sql } from 'drizzle-orm';
import { rowsOf, type Database } from '../db/client.js';

/**
 * The SQL of the `shared_cache` table (key, value, expires_at): the cache of
 * `providers/cache/postgres.cache.ts` when there is no Redis. Times are the database's.
 */

/** The value of a key that has not expired, or null. */
export async function readCacheEntry(db: Database, key: string): Promise<string | null> {
  const rows = rowsOf<{ value: string }>(
    await db.execute(sql`select value from shared_cache where key = ${key} and expires_at > now()`),
  );
  return rows[0]?.value ?? null;
}

/** Writes (or replaces) a key for `ttlMs`. */
export async function writeCacheEntry(db: Database, key: string, value: string, ttlMs: number): Promise<void> {
  await db.execute(sql`
    insert into shared_cache (key, value, expires_at)
    values (${key}, ${value}, now() + make_interval(secs => ${ttlMs / 1000}::float8))
    on conflict (key) do update set value = excluded.value, expires_at = excluded.expires_at`);
}

/** Deletes the entries that have expired. */
export async function purgeCacheEntries(db: Database): Promise<void> {
  await db.execute(sql`delete from shared_cache where expires_at <= now()`);
}
