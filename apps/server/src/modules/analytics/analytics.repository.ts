import type { AnalyticsEvent } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { analyticsEvents } from '../../db/schema.js';
import { containsEmail, redactEmails } from '../../lib/redact.js';

/**
 * Event properties without e-mail addresses: a property named like one (`email`, `e_mail`…)
 * is dropped, an address inside any other text becomes `[email]`. Analytics is about what
 * people do, never who they are by address.
 */
export function scrubProps(props: AnalyticsEvent['props']): AnalyticsEvent['props'] {
  const out: AnalyticsEvent['props'] = {};
  for (const [key, value] of Object.entries(props)) {
    if (/e[-_]?mail/i.test(key)) continue;
    out[key] = typeof value === 'string' && containsEmail(value) ? redactEmails(value) : value;
  }
  return out;
}

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
      props: scrubProps(event.props),
      occurredAt: new Date(event.ts),
      deviceId: redactEmails(event.device_id),
      userId,
    })),
  );
  return events.length;
}
