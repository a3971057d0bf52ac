/**
 * Whether speech recognition can run, known before a call is admitted (docs/calls.md
 * "Starting a call"): a cheap check that a provider answers or that a model can be pulled,
 * made once and kept for a while per process, so `/api/config` and the call token answer at
 * once and many requests share one probe.
 */

import type { CallsUnavailableReason } from '@reverie/shared';

/** Why calls cannot be understood: the reason codes `/api/config` gives (contract/system.ts). */
export type SttUnavailableReason = Exclude<CallsUnavailableReason, 'stt_unavailable'>;

export type SttAvailability = { ok: true } | { ok: false; reason: SttUnavailableReason; detail: string };

/** How long a probe may take: an offline host must not hold a page or a call token for long. */
export const PROBE_TIMEOUT_MS = 3_000;
/** How long an answer is kept: a host that answered is asked again after a minute, one that did not after 20 s. */
export const PROBE_OK_TTL_MS = 60_000;
export const PROBE_FAILED_TTL_MS = 20_000;

/**
 * Asks whether anything answers HTTP at `url` (any status below 500: a 404 or a 401 is a
 * server that is there); answers null, or why not.
 */
export async function probeHttp(url: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<string | null> {
  try {
    const response = await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel().catch(() => undefined);
    return response.status >= 500 ? `${new URL(url).origin} answered ${response.status}` : null;
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    const name = (error as { name?: string }).name;
    const why =
      name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : (cause ?? (error as Error).message);
    return `cannot reach ${new URL(url).origin} (${why})`;
  }
}

/**
 * A probe's answer kept for a while, one probe at a time: callers during a probe share it.
 * `get('cached')` answers a kept value at once even when it has aged (and refreshes it in the
 * background), so a page never waits on a probe once one has ended; `get('fresh')` waits for
 * a new probe when the kept value has aged (a call about to be admitted).
 */
export class CachedCheck<T> {
  private value: { result: T; until: number } | null = null;
  private running: Promise<T> | null = null;

  constructor(
    private readonly run: () => Promise<T>,
    private readonly ttl: (result: T) => number,
    private readonly now: () => number = Date.now,
  ) {}

  get(mode: 'cached' | 'fresh' = 'cached'): Promise<T> {
    const kept = this.value;
    if (kept && kept.until > this.now()) return Promise.resolve(kept.result);
    this.running ??= this.run()
      .then((result) => {
        this.value = { result, until: this.now() + this.ttl(result) };
        return result;
      })
      .finally(() => {
        this.running = null;
      });
    if (kept && mode === 'cached') {
      this.running.catch(() => undefined);
      return Promise.resolve(kept.result);
    }
    return this.running;
  }
}
