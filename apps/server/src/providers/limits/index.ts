import type { DatabaseHandle } from '../../db/client.js';
import { MemoryWindowCounter } from './memory.counter.js';
import { PostgresWindowCounter } from './postgres.counter.js';
import { RedisWindowCounter } from './redis.counter.js';
import { ResilientWindowCounter } from './resilient.counter.js';
import type { WindowCounter } from './window-counter.js';

export type { HitOptions, WindowCount, WindowCounter } from './window-counter.js';
export { MemoryWindowCounter } from './memory.counter.js';
export { PostgresWindowCounter } from './postgres.counter.js';
export { RedisWindowCounter } from './redis.counter.js';
export { LimitsTimeoutError, ResilientWindowCounter } from './resilient.counter.js';
export { WindowLimiter } from './window-limiter.js';
export { BatchedWindowCounter } from './batched.counter.js';
export { globalLimitKey, sharedRateLimitStore } from './rate-limit-store.js';

/** The in-process counters of each PGlite database: apps built on one (tests) count together. */
const pgliteCounters = new WeakMap<object, MemoryWindowCounter>();

/**
 * The counters every limit uses, chosen here only: Redis when `REDIS_URL` is set; otherwise
 * the `rate_limits` table of the PostgreSQL server; in process on PGlite (one process only).
 * A shared backend that fails or answers later than `LIMITS_TIMEOUT_MS` takes each limit's
 * failure mode: counted in process (open) or 503 (closed); `onError` is told.
 */
export function createWindowCounter(
  settings: { REDIS_URL?: string; CHAT_SYNCHRONOUS_COMMIT?: boolean; LIMITS_TIMEOUT_MS?: number },
  database: Pick<DatabaseHandle, 'raw' | 'db'>,
  onError: (error: unknown) => void = () => {},
): WindowCounter {
  const resilience = { timeoutMs: settings.LIMITS_TIMEOUT_MS };
  if (settings.REDIS_URL) {
    // The client reports each failed reconnection: at most one line a minute while Redis is away.
    let last = -Infinity;
    const onClientError = (error: unknown) => {
      if (Date.now() - last < 60_000) return;
      last = Date.now();
      onError(error);
    };
    return new ResilientWindowCounter(new RedisWindowCounter(settings.REDIS_URL, onClientError), onError, resilience);
  }
  if (database.raw.kind === 'postgres')
    return new ResilientWindowCounter(
      new PostgresWindowCounter(database.db, undefined, settings.CHAT_SYNCHRONOUS_COMMIT === false),
      onError,
      resilience,
    );
  let counter = pgliteCounters.get(database.raw.client);
  if (!counter) {
    counter = new MemoryWindowCounter();
    pgliteCounters.set(database.raw.client, counter);
  }
  return counter;
}
