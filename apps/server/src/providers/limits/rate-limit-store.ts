import { createHash } from 'node:crypto';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { WindowCounter } from './window-counter.js';

/**
 * The plugin's keys are addresses (and e-mail|address for log-in): the shared backends keep
 * a hash of them instead, so no address or e-mail lies in the table or in Redis.
 */
const hashed = (key: string) => createHash('sha256').update(key).digest('base64url').slice(0, 32);

/** Recent addresses' keys: the global limit's key is asked for by every API request. */
const globalKeys = new Map<string, string>();
const GLOBAL_KEYS_KEPT = 10_000;

/** The key of an address's global per-address limit (the same key the plugin's global store used). */
export const globalLimitKey = (ip: string): string => {
  let key = globalKeys.get(ip);
  if (key === undefined) {
    if (globalKeys.size >= GLOBAL_KEYS_KEPT) globalKeys.clear();
    key = `global:${hashed(ip)}`;
    globalKeys.set(ip, key);
  }
  return key;
};

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** What `child` receives: the route's merged limit options and the route itself. */
interface ChildOptions {
  routeInfo?: { method?: string | string[]; url?: string };
}

/**
 * A `@fastify/rate-limit` store on a shared `WindowCounter`, so that every replica counts the
 * same limits together. The plugin builds the global store from this class and asks it for a
 * `child` per route with its own `config.rateLimit` (and per `app.createRateLimit`); a
 * child's keys carry the route's method and path, so each route keeps its own count as with
 * the plugin's in-process store. `incr` is given the window and the maximum of its limit.
 * Keys are hashed (no address or e-mail is stored).
 */
export function sharedRateLimitStore(
  counter: WindowCounter,
  /** The counter of the global limit, hit by every request (a `BatchedWindowCounter`). */
  globalCounter: WindowCounter = counter,
  /**
   * The routes (by path) whose limits fail closed when the shared counter is slow or away:
   * money and e-mail (503 `limits_unavailable`); every other limit fails open.
   */
  failClosed: (url: string) => boolean = () => false,
): FastifyRateLimitStoreCtor {
  class SharedRateLimitStore {
    constructor(
      _options?: unknown,
      private readonly scope = 'global',
      private readonly closed = false,
    ) {}

    incr(key: string, callback: Callback, timeWindow: number): void {
      const shared = this.scope === 'global' ? globalCounter : counter;
      shared.hit(`${this.scope}:${hashed(key)}`, timeWindow, 1, { failClosed: this.closed }).then(
        ({ count, ttlMs }) => callback(null, { current: count, ttl: ttlMs }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    /** `{ increment: false }` of `createRateLimit`: the state without counting. */
    read(key: string, callback: Callback): void {
      counter.peek(`${this.scope}:${hashed(key)}`).then(
        ({ count, ttlMs }) => callback(null, { current: count, ttl: ttlMs }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(options: ChildOptions): SharedRateLimitStore {
      const { method, url } = options.routeInfo ?? {};
      // `createRateLimit` limiters have no route: their key generators name them.
      const scope = url ? `${[method].flat().join(',')} ${url}` : 'custom';
      return new SharedRateLimitStore(undefined, scope, url ? failClosed(url) : false);
    }
  }
  return SharedRateLimitStore as unknown as FastifyRateLimitStoreCtor & (new () => FastifyRateLimitStore);
}
