import type { AnalyticsEvent } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { analyticsEvents } from '../../db/schema.js';

/** Stores a batch of events in one multi-row insert. */
export async function insertAnalyticsEvents(
  db: Database,
  events: AnalyticsEvent[],
  userId: string | null,
): Promise<number> {
  if (events.length === 0) return 0;
  await db.insert(analyticsEvents).values(
    events.map((event) => ({
      name: event.name,
      props: event.props,
      occurredAt: new Date(event.ts),
      deviceId: event.device_id,
      userId,
    })),
  );
  return events.length;
}
