/** Hits of one key in its current window, and the milliseconds left in that window. */
export interface WindowCount {
  count: number;
  ttlMs: number;
}

/** How a hit behaves when the shared backend is slow or away (`ResilientWindowCounter`). */
export interface HitOptions {
  /**
   * Closed: the hit fails (503 `limits_unavailable`) rather than let the request through
   * uncounted by the cluster — the routes that spend money or send e-mail. Open (the default):
   * the hit is counted in this process and the request goes on.
   */
  failClosed?: boolean;
}

/**
 * Fixed-window counters shared by every replica (docs/ARCHITECTURE.md "Shared limits"). A
 * key's window starts with its first hit and lasts `windowMs`; the next hit after it ended
 * starts a new one at 1. Each hit is one atomic step of the backend, so hits from any
 * number of replicas at once are all counted.
 */
export interface WindowCounter {
  readonly kind: 'redis' | 'postgres' | 'memory';
  /**
   * Counts `by` hits (one by default) of `key`: the hits so far in its window (these included)
   * and the time left.
   */
  hit(key: string, windowMs: number, by?: number, options?: HitOptions): Promise<WindowCount>;
  /**
   * The same hit answered without waiting, when this process can (an in-process count, or a
   * batched counter's key heard recently); null when only `hit` can answer (nothing counted then).
   */
  hitNow?(key: string, windowMs: number, by?: number): WindowCount | null;
  /** The same without counting; `{count: 0, ttlMs: 0}` when no window is open. */
  peek(key: string): Promise<WindowCount>;
  close(): Promise<void>;
}
