import type { AnalyticsEvent } from '@reverie/shared';
import { createHash } from 'node:crypto';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import type { WindowLimiter } from '../../providers/limits/index.js';
import { insertAnalyticsEvents } from './analytics.repository.js';

export interface AnalyticsServiceDeps {
  db: Database;
  /** Rows per minute per account, device and address (ANALYTICS_EVENTS_PER_MINUTE); none: unlimited. */
  rows?: WindowLimiter;
  /** Rows per minute per address. */
  addressRows?: WindowLimiter;
}

const hashed = (value: string) => createHash('sha256').update(value).digest('base64url').slice(0, 32);

/** First-party analytics (PRODUCT.md §8): what people do, never who they are by address. */
export class AnalyticsService {
  constructor(private readonly deps: AnalyticsServiceDeps) {}

  /**
   * Stores a batch of client events under the authenticated user, if any (a client-sent user
   * id is not trusted); how many were stored.
   */
  record(events: AnalyticsEvent[], userId: string | null): Promise<number> {
    return insertAnalyticsEvents(this.deps.db, events, userId);
  }

  /**
   * A client's batch: its rows count against the rows-per-minute limit of the account (a
   * guest: of each device id it names) and of the address, so that neither new device ids nor
   * new addresses let one client fill the table; over it, 429 `rate_limited` with Retry-After
   * and nothing is stored.
   */
  async recordBatch(events: AnalyticsEvent[], userId: string | null, ip: string): Promise<number> {
    const { rows, addressRows } = this.deps;
    if (rows && addressRows) {
      const counts = new Map<string, number>();
      if (userId) counts.set(`user:${userId}`, events.length);
      else
        for (const event of events)
          counts.set(`device:${hashed(event.device_id)}`, (counts.get(`device:${hashed(event.device_id)}`) ?? 0) + 1);
      const waits = await Promise.all([
        addressRows.take(hashed(ip), events.length),
        ...[...counts].map(([key, by]) => rows.take(key, by)),
      ]);
      const wait = Math.max(...waits);
      if (wait > 0) throw new AppError('rate_limited', { status: 429, headers: { 'retry-after': String(wait) } });
    }
    return this.record(events, userId);
  }

  /** The premium offer was opened (spec: click_subscribe); a guest is counted by address. */
  async recordSubscribeClick(from: string, userId: string | null, ip: string): Promise<void> {
    await this.record(
      [{ name: 'click_subscribe', props: { from }, ts: new Date().toISOString(), device_id: userId ?? `ip:${ip}` }],
      userId,
    );
  }
}
