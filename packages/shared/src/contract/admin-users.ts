import { SubscriptionSchema } from './billing.js';
import { z } from 'zod';
import { freeText, singleLine } from '../input.js';

/** Longest reason an administrator gives for an action (kept in the audit log). */
export const ADMIN_REASON_MAX = 1000;
/** The largest single grant or removal of desires. */
export const ADMIN_DESIRES_MAX = 1_000_000;

export const AdminReasonSchema = freeText(z.string()).pipe(
  z.string().trim().min(1, 'required').max(ADMIN_REASON_MAX, 'too_long'),
);

export const AdminUserIdParamsSchema = z.object({ id: z.uuid() });

export const AdminUserSearchQuerySchema = z.object({
  q: singleLine().trim().max(200).optional().default(''),
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
  size: z.coerce.number().int().min(1).max(100).default(25),
});

export const AdminUserSummarySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    username: z.string(),
    email: z.string(),
    role: z.enum(['user', 'admin']),
    created_at: z.string(),
    banned: z.boolean(),
    balance: z.number().int(),
  })
  .meta({ id: 'AdminUserSummary' });
export type AdminUserSummary = z.infer<typeof AdminUserSummarySchema>;

export const AdminUserListSchema = z
  .object({
    results: z.array(AdminUserSummarySchema),
    total: z.number().int(),
    offset: z.number().int(),
    next_offset: z.number().int().nullable(),
  })
  .meta({ id: 'AdminUserList' });
export type AdminUserList = z.infer<typeof AdminUserListSchema>;

export const AdminPaymentSchema = z
  .object({
    id: z.string(),
    user_id: z.string().nullable(),
    user_email: z.string().nullable(),
    provider: z.string(),
    provider_ref: z.string().nullable(),
    plan: z.string(),
    amount_cents: z.number().int(),
    currency: z.string(),
    status: z.enum(['pending', 'paid', 'failed']),
    refund_reason: z.string().nullable(),
    /** Days of free trial this checkout started (its `amount_cents` is then 0: nothing charged). */
    trial_days: z.number().int(),
    /** Money given back; revenue counts `amount_cents - refunded_cents`. */
    refunded_cents: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'AdminPayment' });
export type AdminPayment = z.infer<typeof AdminPaymentSchema>;

export const AdminLedgerEntrySchema = z
  .object({
    id: z.number().int(),
    user_id: z.string(),
    user_email: z.string().nullable(),
    amount: z.number().int(),
    reason: z.string(),
    reference: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'AdminLedgerEntry' });
export type AdminLedgerEntry = z.infer<typeof AdminLedgerEntrySchema>;

export const AdminLedgerPageSchema = z
  .object({
    results: z.array(AdminLedgerEntrySchema),
    next_param: z.string().nullable(),
  })
  .meta({ id: 'AdminLedgerPage' });
export type AdminLedgerPage = z.infer<typeof AdminLedgerPageSchema>;

export const AdminSessionSchema = z
  .object({
    id: z.string().describe('the refresh-token family'),
    created_at: z.string(),
    last_used_at: z.string(),
    expires_at: z.string(),
    live: z.boolean(),
  })
  .meta({ id: 'AdminSession' });
export type AdminSession = z.infer<typeof AdminSessionSchema>;

export const AdminSubscriptionSchema = z
  .object({
    id: z.string(),
    provider: z.string(),
    plan: z.string(),
    status: z.string(),
    current_period_end: z.string(),
    cancel_at_period_end: z.boolean(),
    trial_ends_at: z.string().nullable(),
    /**
     * What the subscriber sees (the billing presenter's `GET /api/subscription`, one source of
     * truth for the dates): the status now, and the trial end / renewal / end date.
     */
    view: SubscriptionSchema,
  })
  .meta({ id: 'AdminSubscription' });
export type AdminSubscription = z.infer<typeof AdminSubscriptionSchema>;

export const AdminUserDetailSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    username: z.string(),
    email: z.string(),
    age: z.number().int().nullable(),
    locale: z.string(),
    role: z.enum(['user', 'admin']),
    created_at: z.string(),
    is_email_confirmed: z.boolean(),
    banned_at: z.string().nullable(),
    ban_reason: z.string().nullable(),
    balance: z.number().int(),
    payments: z.array(AdminPaymentSchema),
    subscription: AdminSubscriptionSchema.nullable(),
    sessions: z.array(AdminSessionSchema),
  })
  .meta({ id: 'AdminUserDetail' });
export type AdminUserDetail = z.infer<typeof AdminUserDetailSchema>;

export const AdminLedgerQuerySchema = z.object({
  user: z.uuid().optional(),
  c: singleLine().max(200).optional(),
  size: z.coerce.number().int().min(1).max(100).default(25),
});

export const AdminDesiresBodySchema = z.object({
  amount: z
    .number()
    .int()
    .min(-ADMIN_DESIRES_MAX)
    .max(ADMIN_DESIRES_MAX)
    .refine((n) => n !== 0, 'not_zero'),
  reason: AdminReasonSchema,
});
export type AdminDesiresBody = z.infer<typeof AdminDesiresBodySchema>;

export const AdminReasonBodySchema = z.object({ reason: AdminReasonSchema });
export type AdminReasonBody = z.infer<typeof AdminReasonBodySchema>;

export const AdminOptionalReasonBodySchema = z.object({
  reason: freeText(z.string()).pipe(z.string().trim().max(ADMIN_REASON_MAX, 'too_long')).optional(),
});

export const AdminRoleBodySchema = z.object({
  role: z.enum(['user', 'admin']),
  reason: freeText(z.string()).pipe(z.string().trim().max(ADMIN_REASON_MAX, 'too_long')).optional(),
});
export type AdminRoleBody = z.infer<typeof AdminRoleBodySchema>;

export const AdminDesiresResultSchema = z
  .object({ balance: z.number().int(), entry_id: z.number().int() })
  .meta({ id: 'AdminDesiresResult' });

export const AdminOkSchema = z.object({ ok: z.literal(true) }).meta({ id: 'AdminOk' });
