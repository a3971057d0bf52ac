import { z } from 'zod';
import { DAILY_CLAIM_AMOUNT, FREE_TRIAL_DAYS, PREMIUM_GRANT_AMOUNT } from '../constants.js';
import { isSafeReturnPath, RETURN_PATH_MAX } from '../return-path.js';

/** Everything that can be bought (API.md "Desires, premium and payments"). */
export const PLAN_IDS = ['monthly', 'annual', 'pack_350', 'pack_1000', 'pack_3000'] as const;
export type PlanId = (typeof PLAN_IDS)[number];
export const SUBSCRIPTION_PLANS = ['monthly', 'annual'] as const;
export type SubscriptionPlanId = (typeof SUBSCRIPTION_PLANS)[number];
export const PACK_IDS = ['pack_350', 'pack_1000', 'pack_3000'] as const;
export type PackId = (typeof PACK_IDS)[number];

export const BILLING_CURRENCY = 'usd';
export const DAILY_CLAIM_INTERVAL_MS = 24 * 60 * 60 * 1000;
export { DAILY_CLAIM_AMOUNT, FREE_TRIAL_DAYS, PREMIUM_GRANT_AMOUNT };

/** Prices of PRODUCT.md §3, in integer cents. */
export const SUBSCRIPTION_CATALOGUE: Record<
  SubscriptionPlanId,
  { amount_cents: number; interval: 'month' | 'year'; trial_days: number }
> = {
  monthly: { amount_cents: 1299, interval: 'month', trial_days: FREE_TRIAL_DAYS },
  annual: { amount_cents: 6999, interval: 'year', trial_days: FREE_TRIAL_DAYS },
};

export const PACK_CATALOGUE: Record<
  PackId,
  { desires: number; amount_cents: number; old_amount_cents: number | null; discount_percent: number | null }
> = {
  pack_350: { desires: 350, amount_cents: 199, old_amount_cents: 499, discount_percent: 60 },
  pack_1000: { desires: 1000, amount_cents: 999, old_amount_cents: null, discount_percent: null },
  pack_3000: { desires: 3000, amount_cents: 2499, old_amount_cents: null, discount_percent: null },
};

export const isSubscriptionPlan = (plan: PlanId): plan is SubscriptionPlanId =>
  (SUBSCRIPTION_PLANS as readonly string[]).includes(plan);

/** Price of any plan in cents. */
export const planAmountCents = (plan: PlanId): number =>
  isSubscriptionPlan(plan) ? SUBSCRIPTION_CATALOGUE[plan].amount_cents : PACK_CATALOGUE[plan].amount_cents;

export const PlanIdSchema = z.enum(PLAN_IDS);

export const PlansSchema = z
  .object({
    currency: z.string(),
    subscriptions: z.array(
      z.object({
        id: z.enum(SUBSCRIPTION_PLANS),
        amount_cents: z.number().int(),
        interval: z.enum(['month', 'year']),
        trial_days: z.number().int(),
        grant_desires: z.number().int(),
        daily_desires: z.number().int(),
      }),
    ),
    packs: z.array(
      z.object({
        id: z.enum(PACK_IDS),
        desires: z.number().int(),
        amount_cents: z.number().int(),
        old_amount_cents: z.number().int().nullable(),
        discount_percent: z.number().int().nullable(),
        is_offer: z.boolean(),
      }),
    ),
    daily_claim: z.object({ amount: z.number().int(), interval_hours: z.number().int() }),
    /**
     * Whether a card subscription of this user starts with the free trial (one per person: false
     * once the account had a subscription or a trial); true for a guest. Crypto never has a trial.
     */
    trial_available: z.boolean(),
    /** Whether buying works at all on this site; false → checkouts answer 503 payments_not_configured. */
    payments_enabled: z.boolean(),
    card_enabled: z.boolean(),
    crypto_enabled: z.boolean(),
  })
  .meta({ id: 'BillingPlans' });
export type Plans = z.infer<typeof PlansSchema>;

export const ReturnPathSchema = z
  .string()
  .max(RETURN_PATH_MAX)
  .refine(isSafeReturnPath, { message: 'invalid_value' })
  .describe('A same-origin relative path to return to after the checkout, e.g. `/chat/luna`');

export const CheckoutRequestSchema = z
  .object({ plan: PlanIdSchema, return_path: ReturnPathSchema.optional() })
  .meta({ id: 'CheckoutRequest' });
export type CheckoutRequest = z.infer<typeof CheckoutRequestSchema>;
export const CheckoutResponseSchema = z.object({ url: z.string() }).meta({ id: 'CheckoutResponse' });
export type CheckoutResponse = z.infer<typeof CheckoutResponseSchema>;

export const CancelSubscriptionResponseSchema = z
  .object({ status: z.enum(['trialing', 'active', 'past_due', 'cancelled', 'none']), ends_at: z.string().nullable() })
  .meta({ id: 'CancelSubscriptionResponse' });
export type CancelSubscriptionResponse = z.infer<typeof CancelSubscriptionResponseSchema>;

export const SUBSCRIPTION_STATUSES = ['trialing', 'active', 'past_due', 'cancelled'] as const;

/** GET /api/subscription (null without a current subscription), also the answer of resume. */
export const SubscriptionSchema = z
  .object({
    plan: z.enum(SUBSCRIPTION_PLANS),
    status: z.enum(SUBSCRIPTION_STATUSES),
    trial_ends_at: z.string().nullable(),
    /** The next renewal; null when it will not renew (cancelled, or a prepaid crypto period). */
    renews_at: z.string().nullable(),
    /** When premium ends; null while it renews. */
    ends_at: z.string().nullable(),
    provider: z.enum(['sandbox', 'stripe', 'nowpayments']),
    /** Whether a cancel can be undone now (POST /api/subscription/resume). */
    can_resume: z.boolean(),
  })
  .meta({ id: 'Subscription' });
export type Subscription = z.infer<typeof SubscriptionSchema>;
export const SubscriptionOrNullSchema = SubscriptionSchema.nullable();

/** The sandbox checkout as its page shows it (only to the payer). */
export const SandboxPaymentSchema = z
  .object({
    id: z.string(),
    plan: PlanIdSchema,
    amount_cents: z.number().int(),
    currency: z.string(),
    status: z.enum(['pending', 'paid', 'failed']),
    /** For a subscription: the trial's days (0: charged now) and the first charge's date (after the trial). */
    trial_days: z.number().int(),
    first_charge_at: z.string().nullable(),
  })
  .meta({ id: 'SandboxPayment' });
export type SandboxPayment = z.infer<typeof SandboxPaymentSchema>;
export const SandboxDecisionResponseSchema = z
  .object({
    status: z.enum(['pending', 'paid', 'failed']),
    /** Paid but refused as a second subscription of the account: it is refunded, nothing granted. */
    refunded: z.boolean(),
  })
  .meta({ id: 'SandboxDecision' });
export type SandboxDecisionResponse = z.infer<typeof SandboxDecisionResponseSchema>;
export const SandboxPaymentParamsSchema = z.object({ id: z.string().max(64) });

/** GET /api/billing/payments/:id (the payer only): is the purchase already credited? */
export const PaymentStatusSchema = z
  .object({
    id: z.string(),
    plan: PlanIdSchema,
    status: z.enum(['pending', 'paid', 'failed']),
    /** The desires are in or premium is on: the purchase needs no further wait. */
    credited: z.boolean(),
    /** Paid but refused (a second subscription): it is refunded, nothing granted. */
    refunded: z.boolean(),
  })
  .meta({ id: 'PaymentStatus' });
export type PaymentStatus = z.infer<typeof PaymentStatusSchema>;

export const ClaimDesiresResponseSchema = z
  .object({ claimed: z.boolean(), next_at: z.string(), num_tokens: z.number().int() })
  .meta({ id: 'ClaimDesiresResponse' });
export type ClaimDesiresResponse = z.infer<typeof ClaimDesiresResponseSchema>;

export const WebhookAckSchema = z.object({ received: z.boolean(), duplicate: z.boolean() });
export const PaymentProviderParamsSchema = z.object({ provider: z.enum(['sandbox', 'stripe', 'nowpayments']) });
