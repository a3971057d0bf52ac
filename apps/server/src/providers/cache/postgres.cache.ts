import type { Database } from '../../db/client.js';
import { purgeCacheEntries, readCacheEntry, writeCacheEntry } from '../../lib/shared-cache.repository.js';
import type { SharedCache } from './shared-cache.js';

/** Roughly one write in this many also purges the expired entries. */
const PURGE_ONE_IN = 200;

/** The cache in the `shared_cache` table of a PostgreSQL server (no Redis). */
export class PostgresCache implements SharedCache {
  readonly kind = 'postgres' as const;

  constructor(
    private readonly db: Database,
    private readonly random: () => number = Math.random,
  ) {}

  get(key: string): Promise<string | null> {
    return readCacheEntry(this.db, key);
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await writeCacheEntry(this.db, key, value, ttlMs);
    if (this.random() * PURGE_ONE_IN < 1) await purgeCacheEntries(this.db);
  }

  async close(): Promise<void> {}
}
