import type { WindowCount, WindowCounter } from './window-counter.js';

interface LocalWindow {
  /** The cluster's count as last heard from the shared counter. */
  shared: number;
  /** Hits on this replica not yet added to the shared counter. */
  pending: number;
  /**
   * Hits on their way to the shared counter (a flush not yet answered): still counted, or a
   * request arriving during a flush would see the cluster's count without them.
   */
  sending: number;
  windowMs: number;
  endsAt: number;
  /** When the cluster's count was last heard. */
  heardAt: number;
}

/**
 * A shared counter for limits hit by nearly every request (the global per-address limit).
 * A hit goes to the shared counter when this replica has not heard the key's count for
 * `flushEveryMs` (250 ms) — so a key hit now and then is counted exactly; hits that come
 * faster (a burst, a busy client) are counted here and added to the shared counter in one
 * step every `flushEveryMs`: no database write or Redis round trip per request. The answer is
 * the cluster's count as last heard plus this replica's hits since; every replica's hits are
 * counted, and during a burst the cluster may pass the limit by what the other replicas let
 * through within one flush. Limits that must be exact (sign-up, log-in, mail) use the shared
 * counter directly.
 */
export class BatchedWindowCounter implements WindowCounter {
  private readonly windows = new Map<string, LocalWindow>();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly shared: WindowCounter,
    private readonly flushEveryMs = 250,
    private readonly now: () => number = Date.now,
  ) {
    this.timer = setInterval(() => void this.flush(), flushEveryMs);
    this.timer.unref();
  }

  get kind(): WindowCounter['kind'] {
    return this.shared.kind;
  }

  hitNow(key: string, windowMs: number, by = 1): WindowCount | null {
    const now = this.now();
    const window = this.windows.get(key);
    if (!window || window.endsAt <= now || now - window.heardAt >= this.flushEveryMs) return null;
    window.pending += by;
    return { count: window.shared + window.sending + window.pending, ttlMs: window.endsAt - now };
  }

  async hit(key: string, windowMs: number, by = 1): Promise<WindowCount> {
    const now = this.now();
    const window = this.windows.get(key);
    if (!window || window.endsAt <= now || now - window.heardAt >= this.flushEveryMs) {
      // With this replica's hits not yet written, if any.
      const pending = window && window.endsAt > now ? window.pending : 0;
      if (window) window.pending = 0;
      const counted = await this.shared.hit(key, windowMs, by + pending);
      const heard = this.windows.get(key);
      if (heard && heard.endsAt > now) {
        Object.assign(heard, { shared: counted.count, heardAt: now, endsAt: now + counted.ttlMs });
        return { count: counted.count + heard.pending, ttlMs: counted.ttlMs };
      }
      this.windows.set(key, {
        shared: counted.count,
        pending: 0,
        sending: 0,
        windowMs,
        endsAt: now + counted.ttlMs,
        heardAt: now,
      });
      return counted;
    }
    window.pending += by;
    return { count: window.shared + window.sending + window.pending, ttlMs: window.endsAt - now };
  }

  peek(key: string): Promise<WindowCount> {
    return this.shared.peek(key);
  }

  /** Adds this replica's pending hits to the shared counter; drops ended windows. */
  flush(): Promise<void> {
    this.flushing ??= this.flushNow().finally(() => (this.flushing = null));
    return this.flushing;
  }

  private async flushNow(): Promise<void> {
    const now = this.now();
    const sends: Promise<void>[] = [];
    for (const [key, window] of this.windows) {
      if (window.endsAt <= now) {
        this.windows.delete(key);
        continue;
      }
      if (window.pending === 0) continue;
      const pending = window.pending;
      window.pending = 0;
      window.sending += pending;
      sends.push(
        this.shared.hit(key, window.windowMs, pending).then(
          (counted) => {
            window.sending -= pending;
            window.shared = counted.count;
            window.heardAt = now;
            window.endsAt = Math.min(window.endsAt, now + counted.ttlMs);
          },
          () => {
            window.sending -= pending;
            window.pending += pending;
          },
        ),
      );
    }
    await Promise.all(sends);
  }

  /** Adds what is pending and stops; the shared counter is its owner's to close. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
