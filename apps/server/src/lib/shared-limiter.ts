import { sql } from 'drizzle-orm';
import { rowsOf, type Database } from '../db/client.js';

/**
 * How failures of one key (e.g. log-ins of one account) are slowed down: the first
 * `freeFailures - 1` failures cost nothing; the `freeFailures`-th blocks the key for
 * `baseDelayS`, every further failure (after the block ended) for twice the previous delay,
 * at most `maxDelayS`. The count starts again `forgetAfterS` after the latest failure.
 */
export interface DelayPolicy {
  freeFailures: number;
  baseDelayS: number;
  maxDelayS: number;
  forgetAfterS: number;
}

export interface FailureOutcome {
  /** Failures counted for the key so far (within the forget window). */
  failures: number;
  /** Seconds the key is now blocked for; 0 when it is not. */
  blockedForS: number;
}

/** The delay doubles at most this many times (2^20 × base is beyond any sensible cap). */
const MAX_DOUBLINGS = 20;

/**
 * Growing delays after failures (log-ins), shared by every replica, in the `rate_limits`
 * table (key, hits, window_ends_at, blocked_until); plain per-window limits use the shared
 * counters of `providers/limits` instead. Each change is one atomic statement (`INSERT … ON
 * CONFLICT … DO UPDATE … RETURNING`), so concurrent failures on any number of replicas are
 * all counted, none is lost; the database's clock is the only clock. Keys carry a prefix per
 * use (`login:`).
 */
export class SharedLimiter {
  constructor(
    private readonly db: Database,
    /** The prefix of this limiter's keys; clean-ups only touch these rows. */
    private readonly prefix: string,
  ) {}

  private key(id: string): string {
    return `${this.prefix}:${id}`;
  }

  /** Seconds the key stays blocked (rounded up); 0 when it is not blocked. */
  async blockedFor(id: string): Promise<number> {
    const rows = rowsOf<{ seconds: number | string | null }>(
      await this.db.execute(sql`
        select extract(epoch from (blocked_until - now()))::float8 as seconds
        from rate_limits where key = ${this.key(id)} and blocked_until > now()`),
    );
    const seconds = Number(rows[0]?.seconds ?? 0);
    return seconds > 0 ? Math.ceil(seconds) : 0;
  }

  /** Counts one failure and, once the free ones are used, blocks the key for a growing delay. */
  async recordFailure(id: string, policy: DelayPolicy): Promise<FailureOutcome> {
    const free = Math.max(1, Math.floor(policy.freeFailures));
    const base = policy.baseDelayS;
    const max = Math.max(base, policy.maxDelayS);
    const forget = Math.max(policy.forgetAfterS, max);
    // `hits` after this failure: 1 when the previous window ended, else one more.
    const hits = sql`(case when r.window_ends_at <= now() then 1 else r.hits + 1 end)`;
    const delay = (count: typeof hits) =>
      sql`least(${max}::float8, ${base}::float8 * power(2::float8, least(${count} - ${free}::int, ${MAX_DOUBLINGS}::int)))`;
    const result = await this.db.execute(sql`
      insert into rate_limits as r (key, hits, window_ends_at, blocked_until)
      values (
        ${this.key(id)}, 1, now() + make_interval(secs => ${forget}::float8),
        case when ${free}::int <= 1 then now() + make_interval(secs => ${base}::float8) else null end
      )
      on conflict (key) do update set
        hits = ${hits},
        window_ends_at = now() + make_interval(secs => ${forget}::float8),
        blocked_until = case
          when ${hits} >= ${free}::int then now() + make_interval(secs => ${delay(hits)})
          else r.blocked_until end
      returning hits, greatest(0, extract(epoch from (coalesce(blocked_until, now()) - now())))::float8 as seconds`);
    const row = rowsOf<{ hits: number; seconds: number | string }>(result)[0];
    // Now and then, forget keys nobody failed on for a while (bounded table size).
    if (Math.random() < 0.02) await this.purge();
    const seconds = Number(row?.seconds ?? 0);
    return { failures: Number(row?.hits ?? 1), blockedForS: seconds > 0 ? Math.ceil(seconds) : 0 };
  }

  /** Forgets the key (a success). */
  async reset(id: string): Promise<void> {
    await this.db.execute(sql`delete from rate_limits where key = ${this.key(id)}`);
  }

  /** Deletes this limiter's rows whose window and block are both over. */
  async purge(): Promise<number> {
    const rows = rowsOf<{ key: string }>(
      await this.db.execute(sql`
        delete from rate_limits
        where key like ${`${this.prefix}:%`} and window_ends_at < now()
          and (blocked_until is null or blocked_until < now())
        returning key`),
    );
    return rows.length;
  }
}
