import type { AdminDayPoint, AdminOverview } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { readOverview } from './overview.repository.js';

const DAY_MS = 86_400_000;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** The first UTC midnight of a range of `days` days ending today (UTC). */
export function rangeStart(days: number, now = new Date()): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (days - 1) * DAY_MS);
}

const SERIES_KEYS = [
  'signups',
  'active_users',
  'messages',
  'calls',
  'call_minutes',
  'paying_users',
  'crisis',
  'minors_input',
  'minors_output',
] as const;

/** The console's first page: per-UTC-day series, totals, revenue, funnel, what needs attention. */
export class AdminOverviewService {
  constructor(private readonly deps: { db: Database }) {}

  /** The Overview for the last `days` UTC days (today included), one point per day. */
  async get(days: number, now = new Date()): Promise<AdminOverview> {
    const since = rangeStart(days, now);
    const rows = await readOverview(this.deps.db, since);
    const points = new Map<string, AdminDayPoint>();
    for (let i = 0; i < days; i += 1) {
      const day = isoDay(new Date(since.getTime() + i * DAY_MS));
      points.set(day, { day, ...Object.fromEntries(SERIES_KEYS.map((k) => [k, 0])) } as AdminDayPoint);
    }
    for (const series of [rows.signups, rows.messages, rows.calls, rows.payments, rows.safety]) {
      for (const row of series) {
        const point = points.get(String(row.day));
        if (!point) continue;
        for (const [key, value] of Object.entries(row)) {
          if (key !== 'day' && (SERIES_KEYS as readonly string[]).includes(key))
            (point as unknown as Record<string, number>)[key] = Number(value) || 0;
        }
      }
    }
    const series = [...points.values()];
    const sum = (key: (typeof SERIES_KEYS)[number]) => series.reduce((n, p) => n + p[key], 0);
    return {
      days,
      from: isoDay(since),
      to: isoDay(now),
      totals: {
        signups: sum('signups'),
        active_users: rows.totals.active_users,
        messages: sum('messages'),
        calls: sum('calls'),
        call_minutes: sum('call_minutes'),
        paying_users: rows.totals.paying_users,
        crisis: sum('crisis'),
        minors_input: sum('minors_input'),
        minors_output: sum('minors_output'),
      },
      revenue: rows.revenue,
      funnel: rows.funnel,
      series,
      attention: rows.attention,
    };
  }
}
