import type { WindowCount, WindowCounter } from './window-counter.js';

/** Past this many keys, ended windows are dropped on the next new key. */
const PRUNE_ABOVE = 10_000;

/** Counters in this process: for PGlite, where the whole site is one process. */
export class MemoryWindowCounter implements WindowCounter {
  readonly kind = 'memory' as const;
  private readonly windows = new Map<string, { count: number; endsAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async hit(key: string, windowMs: number, by = 1): Promise<WindowCount> {
    return this.hitNow(key, windowMs, by);
  }

  /** The synchronous step (also the fallback of a shared counter that failed). */
  hitNow(key: string, windowMs: number, by = 1): WindowCount {
    const now = this.now();
    const window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      if (!window && this.windows.size >= PRUNE_ABOVE) this.prune(now);
      this.windows.set(key, { count: by, endsAt: now + windowMs });
      return { count: by, ttlMs: windowMs };
    }
    window.count += by;
    return { count: window.count, ttlMs: window.endsAt - now };
  }

  async peek(key: string): Promise<WindowCount> {
    const now = this.now();
    const window = this.windows.get(key);
    if (!window || window.endsAt <= now) return { count: 0, ttlMs: 0 };
    return { count: window.count, ttlMs: window.endsAt - now };
  }

  async close(): Promise<void> {}

  private prune(now: number): void {
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
  }
}
