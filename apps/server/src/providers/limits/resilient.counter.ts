import { MemoryWindowCounter } from './memory.counter.js';
import type { WindowCount, WindowCounter } from './window-counter.js';

/** A failing shared counter is reported at most this often. */
const REPORT_EVERY_MS = 60_000;

/**
 * A shared counter that never fails a request: when Redis or the database does not answer,
 * the hit is counted in this process instead (each replica then limits on its own, as before
 * limits were shared) and the failure is reported, at most once a minute.
 */
export class ResilientWindowCounter implements WindowCounter {
  private readonly local = new MemoryWindowCounter();
  private lastReport = -Infinity;

  constructor(
    private readonly shared: WindowCounter,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  get kind(): WindowCounter['kind'] {
    return this.shared.kind;
  }

  async hit(key: string, windowMs: number, by = 1): Promise<WindowCount> {
    try {
      return await this.shared.hit(key, windowMs, by);
    } catch (error) {
      this.report(error);
      return this.local.hitNow(key, windowMs, by);
    }
  }

  async peek(key: string): Promise<WindowCount> {
    try {
      return await this.shared.peek(key);
    } catch (error) {
      this.report(error);
      return this.local.peek(key);
    }
  }

  close(): Promise<void> {
    return this.shared.close();
  }

  private report(error: unknown): void {
    const now = Date.now();
    if (now - this.lastReport < REPORT_EVERY_MS) return;
    this.lastReport = now;
    this.onError(error);
  }
}
