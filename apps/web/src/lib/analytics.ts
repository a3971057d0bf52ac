import { ANALYTICS } from '@reverie/shared';
import { API_BASE_URL } from './config';
import { readCookie, writeCookie } from './storage';

type PropValue = string | number | boolean | null;
export interface QueuedEvent {
  name: string;
  props: Record<string, PropValue>;
  ts: string;
  device_id: string;
  user_id?: string | null;
}

export interface AnalyticsTransport {
  (events: QueuedEvent[], signal: AbortSignal): Promise<void>;
}

function randomId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
}

/** Cuts property strings to 255 characters and drops values that are not primitives. */
export function sanitizeProps(props: Record<string, unknown>): Record<string, PropValue> {
  const clean: Record<string, PropValue> = {};
  for (const [key, value] of Object.entries(props)) {
    if (typeof value === 'string') clean[key.slice(0, 64)] = value.slice(0, ANALYTICS.maxPropertyLength);
    else if (typeof value === 'number' || typeof value === 'boolean' || value === null) clean[key.slice(0, 64)] = value;
  }
  return clean;
}

const defaultTransport: AnalyticsTransport = async (events, signal) => {
  const response = await fetch(`${API_BASE_URL}/api/analytics/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ events }),
    signal,
    keepalive: true,
  });
  // A 4xx will not succeed on retry: the batch is dropped rather than retried forever.
  if (response.status >= 500 || response.status === 429) throw new Error(`analytics ${response.status}`);
};

/**
 * Batches events (50 a batch, flushed every 5 s), sends them with a 90 s timeout and
 * retries failures with exponential backoff capped at 10 minutes (spec §9).
 */
export class AnalyticsClient {
  private queue: QueuedEvent[] = [];
  private userId: string | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private sending = false;
  private failures = 0;
  readonly deviceId: string;

  constructor(
    private readonly transport: AnalyticsTransport = defaultTransport,
    deviceId?: string,
  ) {
    this.deviceId = deviceId ?? AnalyticsClient.ensureDeviceId();
  }

  /** The device id cookie, created for 365 days when missing. */
  static ensureDeviceId(): string {
    let id = readCookie(ANALYTICS.deviceCookieName);
    if (!id || id.length < 8) {
      id = randomId();
      writeCookie(ANALYTICS.deviceCookieName, id, ANALYTICS.cookieExpiryDays);
    }
    return id;
  }

  track(name: string, props: Record<string, unknown> = {}): void {
    this.queue.push({
      name,
      props: sanitizeProps(props),
      ts: new Date().toISOString(),
      device_id: this.deviceId,
      user_id: this.userId,
    });
    if (this.queue.length >= ANALYTICS.batchSize) void this.flush();
    else this.schedule(ANALYTICS.flushIntervalMs);
  }

  /**
   * Links later events to the signed-in user (spec §3: on log-in). Only the id: analytics
   * never carries an e-mail address (the server scrubs any it is sent).
   */
  identify(userId: string): void {
    this.userId = userId;
    this.track('identify');
  }

  /** Forgets the user on logout. */
  reset(): void {
    this.userId = null;
  }

  get pending(): number {
    return this.queue.length;
  }

  private schedule(delay: number) {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, delay);
  }

  /** Sends up to one batch now; failures are retried with backoff. */
  async flush(): Promise<void> {
    if (this.sending || this.queue.length === 0) return;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.sending = true;
    const batch = this.queue.slice(0, ANALYTICS.batchSize);
    const controller = new AbortController();
    const timeout = setTimeout(() => controller.abort(), ANALYTICS.requestTimeoutMs);
    try {
      await this.transport(batch, controller.signal);
      this.queue.splice(0, batch.length);
      this.failures = 0;
      if (this.queue.length > 0) {
        this.schedule(this.queue.length >= ANALYTICS.batchSize ? 0 : ANALYTICS.flushIntervalMs);
      }
    } catch {
      this.failures += 1;
      this.schedule(this.retryDelay());
    } finally {
      clearTimeout(timeout);
      this.sending = false;
    }
  }

  /** 1 s, 2 s, 4 s … up to 10 minutes. */
  retryDelay(failures = this.failures): number {
    return Math.min(1000 * 2 ** Math.max(0, failures - 1), ANALYTICS.maxRetryDelayMs);
  }
}

let client: AnalyticsClient | null = null;

/** The app's analytics client, made on first use. */
export function analytics(): AnalyticsClient {
  client ??= new AnalyticsClient();
  return client;
}
