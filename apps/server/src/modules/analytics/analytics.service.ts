import type { AnalyticsEvent } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { insertAnalyticsEvents } from './analytics.repository.js';

export interface AnalyticsServiceDeps {
  db: Database;
}

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

  /** The premium offer was opened (spec: click_subscribe); a guest is counted by address. */
  async recordSubscribeClick(from: string, userId: string | null, ip: string): Promise<void> {
    await this.record(
      [{ name: 'click_subscribe', props: { from }, ts: new Date().toISOString(), device_id: userId ?? `ip:${ip}` }],
      userId,
    );
  }
}
