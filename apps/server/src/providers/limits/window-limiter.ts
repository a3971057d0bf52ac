import type { WindowCounter } from './window-counter.js';

/** At most `max` uses per key in a fixed window, counted on a shared `WindowCounter`. */
export class WindowLimiter {
  constructor(
    private readonly counter: WindowCounter,
    /** Keeps this limit's keys apart from other limits on the same counter. */
    private readonly name: string,
    private readonly max: number,
    private readonly windowMs: number,
    /**
     * When the shared counter is slow or away: closed (money, e-mail) answers 503
     * `limits_unavailable`; open (the default) counts in process and goes on.
     */
    private readonly options: { failClosed?: boolean } = {},
  ) {}

  /** Counts `by` uses (one by default); answers the seconds to wait when it is over the limit, else 0. */
  async take(id: string, by = 1): Promise<number> {
    const { count, ttlMs } = await this.counter.hit(`${this.name}:${id}`, this.windowMs, by, this.options);
    return count > this.max ? Math.max(1, Math.ceil(ttlMs / 1000)) : 0;
  }

  /**
   * Takes back one use counted for a request another limit then refused (it was counted
   * meanwhile, not after). Should its window have ended in between, the next window starts
   * one use short: at most one use more, never one less.
   */
  async giveBack(id: string): Promise<void> {
    await this.counter.hit(`${this.name}:${id}`, this.windowMs, -1);
  }
}
