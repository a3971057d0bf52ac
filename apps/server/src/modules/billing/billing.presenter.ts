import {
  BILLING_CURRENCY,
  DAILY_CLAIM_AMOUNT,
  DAILY_CLAIM_INTERVAL_MS,
  PACK_CATALOGUE,
  PACK_IDS,
  PREMIUM_GRANT_AMOUNT,
  SUBSCRIPTION_CATALOGUE,
  SUBSCRIPTION_PLANS,
  type PaymentStatus,
  type Plans,
  type Profile,
} from '@reverie/shared';
import {
  isSubscriptionPlan,
  planAmountCents,
  type PlanId,
  type ProfileBilling,
  type SandboxPayment,
  type Subscription,
} from '@reverie/shared';
import type { PaymentRow, SubscriptionRow } from './billing.repository.js';

export type BillingProfile = ProfileBilling;

/** A subscription row as the profile shows it. */
export function presentSubscription(row: SubscriptionRow, now: Date): NonNullable<Profile['subscription']> {
  // A trial that has run out without a newer event is simply active.
  const status = row.status === 'trialing' && row.trialEndsAt && row.trialEndsAt <= now ? 'active' : row.status;
  const renews = !row.cancelAtPeriodEnd && status !== 'cancelled';
  return {
    plan: row.plan,
    status,
    trial_ends_at: row.trialEndsAt && row.trialEndsAt > now ? row.trialEndsAt.toISOString() : null,
    renews_at: renews ? row.currentPeriodEnd.toISOString() : null,
  };
}

/** GET /api/subscription: the profile's view plus when premium ends and who bills it. */
export function presentSubscriptionDetail(row: SubscriptionRow, now: Date, providerRenews: boolean): Subscription {
  const base = presentSubscription(row, now);
  const cancelled = row.status === 'cancelled' || row.cancelAtPeriodEnd;
  return {
    ...base,
    ends_at: cancelled ? row.currentPeriodEnd.toISOString() : null,
    provider: row.provider,
    can_resume: cancelled && providerRenews && row.currentPeriodEnd > now,
  };
}

/** The price list of PRODUCT.md §3 (GET /api/billing/plans) and whether buying works here. */
export function presentPlans(enabled: { card: boolean; crypto: boolean }, trialAvailable = true): Plans {
  return {
    trial_available: trialAvailable,
    payments_enabled: enabled.card || enabled.crypto,
    card_enabled: enabled.card,
    crypto_enabled: enabled.crypto,
    currency: BILLING_CURRENCY,
    subscriptions: SUBSCRIPTION_PLANS.map((id) => ({
      id,
      amount_cents: SUBSCRIPTION_CATALOGUE[id].amount_cents,
      interval: SUBSCRIPTION_CATALOGUE[id].interval,
      trial_days: SUBSCRIPTION_CATALOGUE[id].trial_days,
      grant_desires: PREMIUM_GRANT_AMOUNT,
      daily_desires: PREMIUM_GRANT_AMOUNT,
    })),
    packs: PACK_IDS.map((id) => ({
      id,
      ...PACK_CATALOGUE[id],
      is_offer: PACK_CATALOGUE[id].discount_percent !== null,
    })),
    daily_claim: { amount: DAILY_CLAIM_AMOUNT, interval_hours: DAILY_CLAIM_INTERVAL_MS / 3_600_000 },
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** A sandbox checkout for its page: the plan, the price and, for a trial, the first charge. */
export function presentSandboxPayment(payment: PaymentRow, now: Date): SandboxPayment {
  const plan = payment.plan as PlanId;
  // The trial the checkout offered (none for crypto or a returning subscriber); the price shown
  // is the plan's, due now or after the trial.
  const trialDays = isSubscriptionPlan(plan) ? payment.trialDays : 0;
  return {
    id: payment.id,
    plan,
    amount_cents: planAmountCents(plan),
    currency: payment.currency,
    status: payment.status,
    trial_days: trialDays,
    first_charge_at: trialDays > 0 ? new Date(now.getTime() + trialDays * DAY_MS).toISOString() : null,
  };
}

/** A payment's outcome for its payer, read on the way back from the checkout. */
export function presentPaymentStatus(payment: PaymentRow, credited: boolean): PaymentStatus {
  return {
    id: payment.id,
    plan: payment.plan,
    status: payment.status,
    credited,
    refunded: Boolean(payment.refundReason),
  };
}
