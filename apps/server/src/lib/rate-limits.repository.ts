import { sql } from 'drizzle-orm';
import { rowsOf, type Database } from '../db/client.js';
import { commitMode } from '../db/commit-mode.js';
import { executePrepared } from '../db/prepared.js';

/**
 * The SQL of the `rate_limits` table (key, hits, window_ends_at, blocked_until), shared by the
 * window counters of `providers/limits/postgres.counter.ts` and the growing delays of
 * `lib/shared-limiter.ts`, each under its own key prefix. Every change is one atomic statement
 * on the database's clock.
 */

/** One key's hits in a batch, and its window in seconds. */
export interface WindowHits {
  key: string;
  by: number;
  secs: number;
}

/**
 * Counts a batch of keys in ONE `INSERT … SELECT … ON CONFLICT … DO UPDATE … RETURNING` (a
 * prepared statement): a key whose window ended starts a new one. Each key at most once.
 */
export async function countWindowHits(
  db: Database,
  rows: WindowHits[],
  relaxedCommit: boolean,
): Promise<{ key: string; hits: number; ms: number }[]> {
  const result = await executePrepared(
    db,
    'limits_hit_many',
    sql`
      with ${commitMode(relaxedCommit)}
      insert into rate_limits as r (key, hits, window_ends_at)
      select v.key, v.by, now() + make_interval(secs => v.secs)
      from json_to_recordset(${JSON.stringify(rows)}::json) as v(key text, by int, secs float8), commit_mode
      on conflict (key) do update set
        hits = case when r.window_ends_at <= now() then excluded.hits else r.hits + excluded.hits end,
        window_ends_at = case when r.window_ends_at <= now() then excluded.window_ends_at else r.window_ends_at end
      returning key, hits, greatest(0, extract(epoch from (window_ends_at - now())) * 1000)::float8 as ms`,
  );
  return rowsOf<{ key: string; hits: number | string; ms: number | string }>(result).map((row) => ({
    key: row.key,
    hits: Number(row.hits),
    ms: Number(row.ms),
  }));
}

/** The key's count and the milliseconds left in its window, or null when no window is open. */
export async function findOpenWindow(db: Database, key: string): Promise<{ hits: number; ms: number } | null> {
  const rows = rowsOf<{ hits: number | string; ms: number | string }>(
    await db.execute(sql`
        select hits, extract(epoch from (window_ends_at - now())) * 1000 as ms
        from rate_limits where key = ${key} and window_ends_at > now()`),
  );
  const row = rows[0];
  return row ? { hits: Number(row.hits), ms: Number(row.ms) } : null;
}

/** Deletes the ended windows under a prefix that carry no block; answers how many. */
export async function deleteEndedWindows(db: Database, prefix: string): Promise<number> {
  const rows = rowsOf<{ key: string }>(
    await db.execute(sql`
        delete from rate_limits
        where key like ${`${prefix}%`} and window_ends_at < now() and blocked_until is null
        returning key`),
  );
  return rows.length;
}

/** Seconds the key stays blocked (a fraction), or 0. */
export async function findBlockedSeconds(db: Database, key: string): Promise<number> {
  const rows = rowsOf<{ seconds: number | string | null }>(
    await db.execute(sql`
        select extract(epoch from (blocked_until - now()))::float8 as seconds
        from rate_limits where key = ${key} and blocked_until > now()`),
  );
  return Number(rows[0]?.seconds ?? 0);
}

/** How a failure is counted: the free failures, the first delay, the cap, the forget window. */
export interface FailureDelays {
  free: number;
  base: number;
  max: number;
  forget: number;
  maxDoublings: number;
}

/**
 * Counts one failure of the key and, from the `free`-th on, blocks it for base × 2^n seconds
 * (at most `max`); the count starts again once `forget` seconds passed without a failure.
 * Answers the failures counted and the seconds blocked (a fraction, or 0).
 */
export async function recordFailureRow(
  db: Database,
  key: string,
  { free, base, max, forget, maxDoublings }: FailureDelays,
): Promise<{ hits: number; seconds: number }> {
  // `hits` after this failure: 1 when the previous window ended, else one more.
  const hits = sql`(case when r.window_ends_at <= now() then 1 else r.hits + 1 end)`;
  const delay = (count: typeof hits) =>
    sql`least(${max}::float8, ${base}::float8 * power(2::float8, least(${count} - ${free}::int, ${maxDoublings}::int)))`;
  const result = await db.execute(sql`
      insert into rate_limits as r (key, hits, window_ends_at, blocked_until)
      values (
        ${key}, 1, now() + make_interval(secs => ${forget}::float8),
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
  return { hits: Number(row?.hits ?? 1), seconds: Number(row?.seconds ?? 0) };
}

/** Forgets a key. */
export async function deleteKey(db: Database, key: string): Promise<void> {
  await db.execute(sql`delete from rate_limits where key = ${key}`);
}

/** Deletes the rows under a prefix whose window and block are both over; answers how many. */
export async function deleteEndedBlocks(db: Database, prefix: string): Promise<number> {
  const rows = rowsOf<{ key: string }>(
    await db.execute(sql`
        delete from rate_limits
        where key like ${`${prefix}%`} and window_ends_at < now()
          and (blocked_until is null or blocked_until < now())
        returning key`),
  );
  return rows.length;
}
