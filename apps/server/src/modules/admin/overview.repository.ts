import { sql, type SQL } from 'drizzle-orm';
import { TAKEDOWN_DEADLINE_HOURS } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { rowsOf } from '../../db/client.js';

/** A UTC day (`YYYY-MM-DD`) and the counts of one series that day. */
type DayRow = { day: string } & Record<string, number | string>;

/** `created_at` of a table → its UTC day as text. */
const utcDay = (column: SQL) => sql`to_char((${column} at time zone 'UTC')::date, 'YYYY-MM-DD')`;

async function byDay(db: Database, query: SQL): Promise<DayRow[]> {
  return rowsOf<DayRow>(await db.execute(query));
}

/** A payment that brought money in: paid, and not a $0 trial checkout (refunds subtract from its amount). */
const MONEY_IN = sql`status = 'paid' and amount_cents > 0`;

const int = (value: unknown) => Number(value ?? 0) || 0;

export interface OverviewRows {
  signups: DayRow[];
  messages: DayRow[];
  calls: DayRow[];
  payments: DayRow[];
  safety: DayRow[];
  totals: { active_users: number; paying_users: number };
  revenue: { currency: string; amount_cents: number; payments: number }[];
  funnel: { visitors: number; signups: number; first_message: number; purchase: number };
  attention: {
    takedown_overdue: number;
    takedown_open: number;
    message_reports_open: number;
    support_reports_open: number;
    characters_pending: number;
  };
}

/**
 * Everything the Overview shows for the range starting at `since` (the first UTC midnight of
 * the range): per-day series, distinct totals, revenue per currency, the funnel and what
 * waits for an administrator. Each query reads one table (or two for the funnel) through an
 * index on its time column.
 */
export async function readOverview(db: Database, since: Date): Promise<OverviewRows> {
  const from = since.toISOString();
  const signups = await byDay(
    db,
    sql`select ${utcDay(sql`created_at`)} as day, count(*)::int as signups
        from users where created_at >= ${from} group by 1`,
  );
  const messages = await byDay(
    db,
    sql`select ${utcDay(sql`created_at`)} as day, count(*)::int as messages,
               count(distinct user_id)::int as active_users
        from messages where role = 'user' and created_at >= ${from} group by 1`,
  );
  const calls = await byDay(
    db,
    sql`select ${utcDay(sql`started_at`)} as day, count(*)::int as calls,
               round(coalesce(sum(seconds_billed), 0) / 60.0)::int as call_minutes
        from calls where connected_at is not null and started_at >= ${from} group by 1`,
  );
  const payments = await byDay(
    db,
    sql`select ${utcDay(sql`created_at`)} as day, count(distinct user_id)::int as paying_users
        from payments where ${MONEY_IN} and created_at >= ${from} group by 1`,
  );
  const safety = await byDay(
    db,
    sql`select ${utcDay(sql`created_at`)} as day,
               count(*) filter (where kind = 'crisis')::int as crisis,
               count(*) filter (where kind = 'minors_input')::int as minors_input,
               count(*) filter (where kind = 'minors_output')::int as minors_output
        from safety_events where created_at >= ${from} group by 1`,
  );
  const [totals] = rowsOf<Record<string, unknown>>(
    await db.execute(sql`select
      (select count(distinct user_id) from messages where role = 'user' and created_at >= ${from})::int as active_users,
      (select count(distinct user_id) from payments where ${MONEY_IN} and created_at >= ${from})::int as paying_users`),
  );
  const revenue = rowsOf<Record<string, unknown>>(
    await db.execute(sql`select currency, coalesce(sum(amount_cents - refunded_cents), 0)::bigint as amount_cents,
        count(*)::int as payments
      from payments where ${MONEY_IN} and created_at >= ${from}
      group by currency order by currency`),
  ).map((r) => ({ currency: String(r.currency), amount_cents: int(r.amount_cents), payments: int(r.payments) }));
  const [funnel] = rowsOf<Record<string, unknown>>(
    await db.execute(sql`select
      (select count(distinct device_id) from analytics_events where occurred_at >= ${from})::int as visitors,
      (select count(*) from users u where u.created_at >= ${from})::int as signups,
      (select count(*) from users u where u.created_at >= ${from}
         and exists (select 1 from messages m where m.user_id = u.id and m.role = 'user'))::int as first_message,
      (select count(*) from users u where u.created_at >= ${from}
         and exists (select 1 from messages m where m.user_id = u.id and m.role = 'user')
         and exists (select 1 from payments p where p.user_id = u.id and p.status = 'paid' and p.amount_cents > 0))::int as purchase`),
  );
  return {
    signups,
    messages,
    calls,
    payments,
    safety,
    totals: { active_users: int(totals?.active_users), paying_users: int(totals?.paying_users) },
    revenue,
    funnel: {
      visitors: int(funnel?.visitors),
      signups: int(funnel?.signups),
      first_message: int(funnel?.first_message),
      purchase: int(funnel?.purchase),
    },
    attention: await readAttention(db),
  };
}

/** What waits for an administrator (the Overview's "needs attention" strip). */
export async function readAttention(db: Database): Promise<OverviewRows['attention']> {
  const [row] = rowsOf<Record<string, unknown>>(
    await db.execute(sql`select
      (select count(*) from takedown_requests where status = 'open'
         and created_at < now() - make_interval(hours => ${TAKEDOWN_DEADLINE_HOURS}))::int as takedown_overdue,
      (select count(*) from takedown_requests where status = 'open')::int as takedown_open,
      (select count(*) from message_reports where status = 'open')::int as message_reports_open,
      (select count(*) from support_reports where status = 'open')::int as support_reports_open,
      (select count(*) from bots where visibility = 'public' and review_state = 'pending'
         and author_id is not null)::int as characters_pending`),
  );
  return {
    takedown_overdue: int(row?.takedown_overdue),
    takedown_open: int(row?.takedown_open),
    message_reports_open: int(row?.message_reports_open),
    support_reports_open: int(row?.support_reports_open),
    characters_pending: int(row?.characters_pending),
  };
}
