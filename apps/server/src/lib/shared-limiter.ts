import type { Database } from '../db/client.js';
import { deleteEndedBlocks, deleteKey, findBlockedSeconds, recordFailureRow } from './rate-limits.repository.js';

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
    const seconds = await findBlockedSeconds(this.db, this.key(id));
    return seconds > 0 ? Math.ceil(seconds) : 0;
  }

  /** Counts one failure and, once the free ones are used, blocks the key for a growing delay. */
  async recordFailure(id: string, policy: DelayPolicy): Promise<FailureOutcome> {
    const free = Math.max(1, Math.floor(policy.freeFailures));
    const base = policy.baseDelayS;
    const max = Math.max(base, policy.maxDelayS);
    const forget = Math.max(policy.forgetAfterS, max);
    const row = await recordFailureRow(this.db, this.key(id), { free, base, max, forget, maxDoublings: MAX_DOUBLINGS });
    // Now and then, forget keys nobody failed on for a while (bounded table size).
    if (Math.random() < 0.02) await this.purge();
    return { failures: row.hits, blockedForS: row.seconds > 0 ? Math.ceil(row.seconds) : 0 };
  }

  /** Forgets the key (a success). */
  reset(id: string): Promise<void> {
    return deleteKey(this.db, this.key(id));
  }

  /** Deletes this limiter's rows whose window and block are both over. */
  purge(): Promise<number> {
    return deleteEndedBlocks(this.db, `${this.prefix}:`);
  }
}
