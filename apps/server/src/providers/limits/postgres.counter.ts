import type { Database } from '../../db/client.js';
import { GroupCommit } from '../../lib/group-commit.js';
import { countWindowHits, deleteEndedWindows, findOpenWindow } from '../../lib/rate-limits.repository.js';
import type { WindowCount, WindowCounter } from './window-counter.js';

interface Hit {
  key: string;
  windowMs: number;
  by: number;
}

/** About one hit in this many also deletes ended windows (the table stays small). */
const PURGE_EVERY = 200;

/**
 * Counters in the `rate_limits` table (key, hits, window_ends_at), shared with the log-in
 * delays of `lib/shared-limiter.ts` under their own key prefix. A hit is counted by an
 * `INSERT … ON CONFLICT … DO UPDATE … RETURNING` on the database's clock: it starts the window
 * or counts in it, atomically, whichever replica sends it. The hits of one moment (the chat's
 * fair-use counts of many sends) share one such statement (a group commit, `lib/group-commit.ts`);
 * each caller still gets its own exact count once the statement is done.
 */
export class PostgresWindowCounter implements WindowCounter {
  readonly kind = 'postgres' as const;

  constructor(
    private readonly db: Database,
    /** The prefix of this counter's keys; the purge only touches these rows. */
    private readonly prefix = 'rl:',
    /** Counts commit without waiting for the disk (`db/commit-mode.ts`): a count lost in a crash of the database server is harmless. */
    private readonly relaxedCommit = false,
  ) {}

  /** The hits of one moment, from every caller, counted in one statement (`hitMany`). */
  private readonly hits = new GroupCommit<Hit, WindowCount>((batch) => this.hitMany(batch));

  hit(key: string, windowMs: number, by = 1): Promise<WindowCount> {
    return this.hits.push({ key: this.prefix + key, windowMs, by });
  }

  /**
   * Counts a batch of hits in ONE `INSERT … SELECT … ON CONFLICT … DO UPDATE … RETURNING`: the
   * hits of one key are added up first (one row may be updated only once per statement), and
   * each hit gets the count it would have had one after the other, in the batch's order. The
   * keys go in sorted, so that two replicas' batches lock the same rows in the same order.
   */
  private async hitMany(batch: Hit[]): Promise<WindowCount[]> {
    const totals = new Map<string, { by: number; windowMs: number }>();
    for (const hit of batch) {
      const total = totals.get(hit.key);
      if (total) total.by += hit.by;
      else totals.set(hit.key, { by: hit.by, windowMs: hit.windowMs });
    }
    const rows = [...totals]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, total]) => ({ key, by: total.by, secs: total.windowMs / 1000 }));
    const counted = new Map<string, { hits: number; ms: number }>();
    for (const row of await countWindowHits(this.db, rows, this.relaxedCommit))
      counted.set(row.key, { hits: row.hits, ms: row.ms });
    if (Math.random() * PURGE_EVERY < 1) void this.purge().catch(() => undefined);
    // The hits of a key before each one in the batch: its count is the total less those after it.
    const seen = new Map<string, number>();
    return batch.map((hit) => {
      const total = totals.get(hit.key)!;
      const before = (seen.get(hit.key) ?? 0) + hit.by;
      seen.set(hit.key, before);
      const row = counted.get(hit.key);
      return {
        count: row ? row.hits - total.by + before : before,
        ttlMs: Math.ceil(row?.ms ?? hit.windowMs),
      };
    });
  }

  async peek(key: string): Promise<WindowCount> {
    const row = await findOpenWindow(this.db, this.prefix + key);
    return row ? { count: row.hits, ttlMs: Math.ceil(row.ms) } : { count: 0, ttlMs: 0 };
  }

  /** Deletes this counter's ended windows; answers how many. */
  purge(): Promise<number> {
    return deleteEndedWindows(this.db, this.prefix);
  }

  /** Waits for the hits already asked for. */
  async close(): Promise<void> {
    await this.hits.flush();
  }
}
