import { sql } from 'drizzle-orm';
import { rowsOf, type Database } from '../../db/client.js';
import type { WindowCount, WindowCounter } from './window-counter.js';

/** About one hit in this many also deletes ended windows (the table stays small). */
const PURGE_EVERY = 200;

/**
 * Counters in the `rate_limits` table (key, hits, window_ends_at), shared with the log-in
 * delays of `lib/shared-limiter.ts` under their own key prefix. A hit is one
 * `INSERT … ON CONFLICT … DO UPDATE … RETURNING` on the database's clock: it starts the window
 * or counts in it, atomically, whichever replica sends it.
 */
export class PostgresWindowCounter implements WindowCounter {
  readonly kind = 'postgres' as const;

  constructor(
    private readonly db: Database,
    /** The prefix of this counter's keys; the purge only touches these rows. */
    private readonly prefix = 'rl:',
  ) {}

  async hit(key: string, windowMs: number, by = 1): Promise<WindowCount> {
    const ended = sql`r.window_ends_at <= now()`;
    const length = sql`make_interval(secs => ${windowMs / 1000}::float8)`;
    const result = await this.db.execute(sql`
      insert into rate_limits as r (key, hits, window_ends_at)
      values (${this.prefix + key}, ${by}::int, now() + ${length})
      on conflict (key) do update set
        hits = case when ${ended} then ${by}::int else r.hits + ${by}::int end,
        window_ends_at = case when ${ended} then now() + ${length} else r.window_ends_at end
      returning hits, greatest(0, extract(epoch from (window_ends_at - now())) * 1000)::float8 as ms`);
    const row = rowsOf<{ hits: number | string; ms: number | string }>(result)[0];
    if (Math.random() * PURGE_EVERY < 1) void this.purge().catch(() => undefined);
    return { count: Number(row?.hits ?? 1), ttlMs: Math.ceil(Number(row?.ms ?? windowMs)) };
  }

  async peek(key: string): Promise<WindowCount> {
    const rows = rowsOf<{ hits: number | string; ms: number | string }>(
      await this.db.execute(sql`
        select hits, extract(epoch from (window_ends_at - now())) * 1000 as ms
        from rate_limits where key = ${this.prefix + key} and window_ends_at > now()`),
    );
    const row = rows[0];
    return row ? { count: Number(row.hits), ttlMs: Math.ceil(Number(row.ms)) } : { count: 0, ttlMs: 0 };
  }

  /** Deletes this counter's ended windows; answers how many. */
  async purge(): Promise<number> {
    const rows = rowsOf<{ key: string }>(
      await this.db.execute(sql`
        delete from rate_limits
        where key like ${`${this.prefix}%`} and window_ends_at < now() and blocked_until is null
        returning key`),
    );
    return rows.length;
  }

  async close(): Promise<void> {}
}
