import type { DatabaseHandle } from '../../db/client.js';
import { MemoryCache } from './memory.cache.js';
import { PostgresCache } from './postgres.cache.js';
import { RedisCache } from './redis.cache.js';
import type { SharedCache } from './shared-cache.js';

export type { SharedCache } from './shared-cache.js';
export { MemoryCache } from './memory.cache.js';
export { PostgresCache } from './postgres.cache.js';
export { RedisCache } from './redis.cache.js';

/** The in-process cache of each PGlite database: apps built on one (tests) share it. */
const pgliteCaches = new WeakMap<object, MemoryCache>();

/**
 * The shared cache, chosen here only (as the limits and pub/sub are): Redis when `REDIS_URL`
 * is set; otherwise the `shared_cache` table of the PostgreSQL server; in process on PGlite.
 */
export function createSharedCache(
  settings: { REDIS_URL?: string },
  database: Pick<DatabaseHandle, 'raw' | 'db'>,
  onError: (error: unknown) => void = () => {},
): SharedCache {
  if (settings.REDIS_URL) return new RedisCache(settings.REDIS_URL, onError);
  if (database.raw.kind === 'postgres') return new PostgresCache(database.db);
  let cache = pgliteCaches.get(database.raw.client);
  if (!cache) {
    cache = new MemoryCache();
    pgliteCaches.set(database.raw.client, cache);
  }
  return cache;
}
