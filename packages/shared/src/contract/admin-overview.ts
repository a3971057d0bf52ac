import { z } from 'zod';

/** The ranges the Overview offers, in days (daily buckets in UTC). */
export const ADMIN_OVERVIEW_RANGES = [7, 30, 90] as const;

export const AdminOverviewQuerySchema = z.object({
  days: z.coerce
    .number()
    .int()
    .refine((d) => (ADMIN_OVERVIEW_RANGES as readonly number[]).includes(d), { message: 'invalid_range' })
    .default(30),
});

/** One UTC day of the Overview's series. */
export const AdminDayPointSchema = z
  .object({
    day: z.string().describe('YYYY-MM-DD, UTC'),
    signups: z.number().int(),
    active_users: z.number().int().describe('users who sent a message that day'),
    messages: z.number().int().describe('messages users sent that day'),
    calls: z.number().int(),
    call_minutes: z.number().int(),
    paying_users: z.number().int(),
    crisis: z.number().int(),
    minors_input: z.number().int(),
    minors_output: z.number().int(),
  })
  .meta({ id: 'AdminDayPoint' });
export type AdminDayPoint = z.infer<typeof AdminDayPointSchema>;

export const AdminRevenueSchema = z
  .object({
    currency: z.string(),
    amount_cents: z.number().int(),
    payments: z.number().int(),
  })
  .meta({ id: 'AdminRevenue' });
export type AdminRevenue = z.infer<typeof AdminRevenueSchema>;

export const AdminOverviewSchema = z
  .object({
    days: z.number().int(),
    from: z.string().describe('first day (UTC) of the range'),
    to: z.string().describe('last day (UTC) of the range, today'),
    totals: z.object({
      signups: z.number().int(),
      active_users: z.number().int().describe('distinct users who sent a message in the range'),
      messages: z.number().int(),
      calls: z.number().int(),
      call_minutes: z.number().int(),
      paying_users: z.number().int().describe('distinct users with a paid payment in the range'),
      crisis: z.number().int(),
      minors_input: z.number().int(),
      minors_output: z.number().int(),
    }),
    revenue: z.array(AdminRevenueSchema),
    funnel: z.object({
      visitors: z.number().int().describe('distinct analytics devices seen in the range'),
      signups: z.number().int().describe('accounts created in the range'),
      first_message: z.number().int().describe('of those accounts, how many sent a message'),
      purchase: z.number().int().describe('of those accounts, how many paid'),
    }),
    series: z.array(AdminDayPointSchema),
    attention: z.object({
      takedown_overdue: z.number().int().describe('open takedown requests older than 48 hours'),
      takedown_open: z.number().int(),
      message_reports_open: z.number().int(),
      support_reports_open: z.number().int(),
      characters_pending: z.number().int(),
    }),
  })
  .meta({ id: 'AdminOverview' });
export type AdminOverview = z.infer<typeof AdminOverviewSchema>;
