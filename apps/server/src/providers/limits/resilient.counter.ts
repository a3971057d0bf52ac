import { AppError } from '../../lib/errors.js';
import { MemoryWindowCounter } from './memory.counter.js';
import type { HitOptions, WindowCount, WindowCounter } from './window-counter.js';

/** A failing shared counter is reported at most this often. */
const REPORT_EVERY_MS = 60_000;

/** How long a client is told to wait when a limit that fails closed cannot be counted. */
const RETRY_AFTER_S = 5;

/** The shared counter did not answer within the timeout. */
export class LimitsTimeoutError extends Error {
  constructor(ms: number) {
    super(`The shared limits did not answer within ${ms} ms`);
  }
}

export interface ResilientOptions {
  /**
   * How long a hit waits for the shared backend (`LIMITS_TIMEOUT_MS`, 400 ms): past it the hit
   * takes its failure mode, so a slow Redis or database never holds a request for seconds.
   */
  timeoutMs?: number;
}

/**
 * A shared counter whose failure is fast and chosen per limit. When Redis or the database
 * does not answer within `timeoutMs` (or fails), a hit that fails open — reads, the global
 * per-address limit — is counted in this process instead (each replica then limits on its
 * own, as before limits were shared) and the request goes on; a hit that fails closed (money
 * and e-mail routes, `HitOptions.failClosed`) answers 503 `limits_unavailable` with
 * Retry-After. The failure is reported at most once a minute.
 */
export class ResilientWindowCounter implements WindowCounter {
  private readonly local = new MemoryWindowCounter();
  private lastReport = -Infinity;
  private readonly timeoutMs: number;

  constructor(
    private readonly shared: WindowCounter,
    private readonly onError: (error: unknown) => void = () => {},
    options: ResilientOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 75;
  }

  get kind(): WindowCounter['kind'] {
    return this.shared.kind;
  }

  async hit(key: string, windowMs: number, by = 1, options: HitOptions = {}): Promise<WindowCount> {
    try {
      return await this.withTimeout(this.shared.hit(key, windowMs, by));
    } catch (error) {
      this.report(error);
      if (options.failClosed) {
        throw new AppError('limits_unavailable', { status: 503, headers: { 'retry-after': String(RETRY_AFTER_S) } });
      }
      return this.local.hitNow(key, windowMs, by);
    }
  }

  async peek(key: string): Promise<WindowCount> {
    try {
      return await this.withTimeout(this.shared.peek(key));
    } catch (error) {
      this.report(error);
      return this.local.peek(key);
    }
  }

  close(): Promise<void> {
    return this.shared.close();
  }

  private withTimeout<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new LimitsTimeoutError(this.timeoutMs)), this.timeoutMs);
    });
    // A late answer (or failure) of the abandoned call is dropped.
    work.catch(() => undefined);
    return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
  }

  private report(error: unknown): void {
    const now = Date.now();
    if (now - this.lastReport < REPORT_EVERY_MS) return;
    this.lastReport = now;
    this.onError(error);
  }
}
