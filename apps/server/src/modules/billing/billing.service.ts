import { randomUUID } from 'node:crypto';
import {
  BILLING_CURRENCY,
  DAILY_CLAIM_AMOUNT,
  DAILY_CLAIM_INTERVAL_MS,
  isSubscriptionPlan,
  PACK_CATALOGUE,
  planAmountCents,
  PREMIUM_GRANT_AMOUNT,
  SUBSCRIPTION_CATALOGUE,
  type PackId,
  type PlanId,
  type SubscriptionPlanId,
} from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import type { PaymentEvent, PaymentProvider, PaymentProviderId } from '../../providers/payments/index.js';
import {
  findCurrentSubscription,
  findLastClaim,
  findSubscriptionByRef,
  findUserEmail,
  flagPaymentForRefund,
  insertPayment,
  isRefusedSubscription,
  lockOrCreateSubscription,
  lockUser,
  recordWebhookEvent,
  setPaymentProviderRef,
  settlePayment,
  takeDailyClaim,
  updateSubscription,
  type PaymentRow,
  type SubscriptionRow,
} from './billing.repository.js';
import { applyLedgerEntry, hasLedgerEntrySince, readBalance, type LedgerReason } from './ledger.repository.js';
import { presentSubscription, presentSubscriptionDetail, type BillingProfile } from './billing.presenter.js';
import type { Subscription } from '@reverie/shared';

/** `payments.refund_reason` of a second subscription's payment (one account, one subscription). */
export const DUPLICATE_SUBSCRIPTION = 'duplicate_subscription';

const DAY_MS = 24 * 60 * 60 * 1000;
const utcDay = (d: Date) => d.toISOString().slice(0, 10);
const startOfUtcDay = (d: Date) => new Date(`${utcDay(d)}T00:00:00.000Z`);

/** Takes desires from a balance; 402 `insufficient_desires` when it would go below zero. */
export async function debitDesires(
  db: Database,
  userId: string,
  amount: number,
  options: { reason?: LedgerReason; reference?: string | null; idempotencyKey?: string } = {},
): Promise<{ applied: boolean; balance: number }> {
  if (amount <= 0) throw new Error('Debit amount must be positive');
  // One statement: atomic without a transaction round trip (applyLedgerEntry).
  return applyLedgerEntry(db, {
    userId,
    amount: -amount,
    reason: options.reason ?? 'spend',
    reference: options.reference ?? null,
    idempotencyKey: options.idempotencyKey ?? `spend:${randomUUID()}`,
  });
}

/** Adds desires to a balance through the ledger (idempotent by key). */
export async function creditDesires(
  db: Database,
  userId: string,
  amount: number,
  options: { reason: LedgerReason; reference?: string | null; idempotencyKey: string },
): Promise<{ applied: boolean; balance: number }> {
  if (amount <= 0) throw new Error('Credit amount must be positive');
  return applyLedgerEntry(db, { userId, amount, ...options });
}

/** The daily claim: 100 desires once every 24 h (spec §9). */
export async function claimDailyDesires(
  db: Database,
  userId: string,
  now = new Date(),
): Promise<{ claimed: boolean; next_at: string; num_tokens: number }> {
  return db.transaction(async (tx) => {
    const taken = await takeDailyClaim(tx, userId, now, DAILY_CLAIM_INTERVAL_MS);
    if (!taken) {
      const last = (await findLastClaim(tx, userId)) ?? now;
      return {
        claimed: false,
        next_at: new Date(last.getTime() + DAILY_CLAIM_INTERVAL_MS).toISOString(),
        num_tokens: await readBalance(tx, userId),
      };
    }
    const { balance } = await applyLedgerEntry(tx, {
      userId,
      amount: DAILY_CLAIM_AMOUNT,
      reason: 'daily_claim',
      reference: taken.toISOString(),
      idempotencyKey: `daily_claim:${userId}:${taken.toISOString()}`,
    });
    return {
      claimed: true,
      next_at: new Date(taken.getTime() + DAILY_CLAIM_INTERVAL_MS).toISOString(),
      num_tokens: balance,
    };
  });
}

/** True while a subscription period (trial included, cancelled included) has not ended. */
export async function hasPremium(db: Database, userId: string, now = new Date()): Promise<boolean> {
  return (await findCurrentSubscription(db, userId, now)) !== null;
}

/**
 * Premium's 100 desires for each day the user logs in: once per UTC day, idempotent. The
 * day of activation counts as granted (the activation gave its 100). The accounts login and
 * profile flows call this; `getBillingProfile` calls it too.
 */
export async function grantDailyPremiumDesires(
  db: Database,
  userId: string,
  now = new Date(),
): Promise<{ granted: boolean; balance: number }> {
  const subscription = await findCurrentSubscription(db, userId, now);
  if (!subscription) return { granted: false, balance: await readBalance(db, userId) };
  if (await hasLedgerEntrySince(db, userId, 'premium_activation', startOfUtcDay(now)))
    return { granted: false, balance: await readBalance(db, userId) };
  const result = await creditDesires(db, userId, PREMIUM_GRANT_AMOUNT, {
    reason: 'premium_daily',
    reference: subscription.id,
    idempotencyKey: `premium_daily:${userId}:${utcDay(now)}`,
  });
  return { granted: result.applied, balance: result.balance };
}

/**
 * The billing part of the profile (API.md "Profile"); the accounts presenter merges it in.
 * Grants the day's premium desires first, so the balance shown includes them.
 */
export async function getBillingProfile(db: Database, userId: string, now = new Date()): Promise<BillingProfile> {
  await grantDailyPremiumDesires(db, userId, now);
  const [balance, subscription, lastClaim] = await Promise.all([
    readBalance(db, userId),
    findCurrentSubscription(db, userId, now),
    findLastClaim(db, userId),
  ]);
  const nextClaim = lastClaim ? new Date(lastClaim.getTime() + DAILY_CLAIM_INTERVAL_MS) : null;
  return {
    num_tokens: balance,
    has_subscription: subscription !== null,
    subscription: subscription ? presentSubscription(subscription, now) : null,
    next_claim_at: nextClaim && nextClaim > now ? nextClaim.toISOString() : null,
  };
}

/** Where a provider sends the browser back: the page the buyer started from, with the outcome. */
export function checkoutReturnUrl(
  publicUrl: string,
  returnPath: string | null,
  outcome: 'success' | 'failed',
  plan: PlanId,
): string {
  const base = publicUrl.replace(/\/$/, '');
  // returnPath passed isSafeReturnPath (relative, same origin), so it only adds a path and query.
  const url = new URL(`${base}${returnPath ?? '/'}`);
  url.searchParams.set('purchase', outcome);
  url.searchParams.set('plan', plan);
  return url.toString();
}

/**
 * Starts a checkout with the given provider and answers where to send the browser. No
 * provider (buying is off on this site) → 503 `payments_not_configured`; a subscription plan
 * while one is current (even cancelled, until it ends) → 409 `already_subscribed`.
 */
export async function startCheckout(
  db: Database,
  provider: PaymentProvider | null,
  input: { userId: string; plan: PlanId; publicUrl: string; returnPath?: string | null; now?: Date },
): Promise<{ url: string; paymentId: string }> {
  if (!provider) throw new AppError('payments_not_configured', { status: 503 });
  const now = input.now ?? new Date();
  if (isSubscriptionPlan(input.plan) && (await findCurrentSubscription(db, input.userId, now)))
    throw new AppError('already_subscribed', { status: 409 });
  const payment = await insertPayment(db, {
    userId: input.userId,
    provider: provider.id,
    plan: input.plan,
    amountCents: planAmountCents(input.plan),
    currency: BILLING_CURRENCY,
  });
  const returnPath = input.returnPath ?? null;
  try {
    const { url, providerRef } = await provider.createCheckout({
      paymentId: payment.id,
      plan: input.plan,
      amountCents: payment.amountCents,
      currency: payment.currency,
      userId: input.userId,
      email: await findUserEmail(db, input.userId),
      successUrl: checkoutReturnUrl(input.publicUrl, returnPath, 'success', input.plan),
      cancelUrl: checkoutReturnUrl(input.publicUrl, returnPath, 'failed', input.plan),
      returnPath,
    });
    if (providerRef) await setPaymentProviderRef(db, payment.id, providerRef);
    return { url, paymentId: payment.id };
  } catch (error) {
    await settlePayment(db, payment.id, 'failed', null);
    if (error instanceof AppError) throw error;
    throw new AppError('payment_error', { status: 502 });
  }
}

type ProvidersById = Partial<Record<PaymentProviderId, PaymentProvider>>;

/** Where a provider's failure is logged (Fastify's `request.log` fits). */
export interface ProviderErrorLog {
  error(details: object, message: string): void;
}

/**
 * Calls a provider's API for a subscriber's action. Our own refusals (AppError, e.g. crypto's
 * `cannot_resume`) pass through; anything else — the provider down, a Stripe API error with its
 * own status code — is logged without personal data and answered `502 payment_error`.
 */
async function callProvider(
  provider: PaymentProvider,
  action: 'cancel' | 'resume',
  call: () => Promise<void>,
  log?: ProviderErrorLog,
): Promise<void> {
  try {
    await call();
  } catch (error) {
    if (error instanceof AppError) throw error;
    const details = error instanceof Error ? error : null;
    log?.error(
      {
        provider: provider.id,
        action,
        error: details?.name ?? typeof error,
        message: details?.message,
        providerStatus: (error as { statusCode?: unknown } | null)?.statusCode,
      },
      'payment provider call failed',
    );
    throw new AppError('payment_error', { status: 502 });
  }
}

/** A provider's subscriptions renew unless it says otherwise (crypto is prepaid once). */
const renewsWith = (providers: ProvidersById, id: PaymentProviderId) => providers[id]?.renews ?? id !== 'nowpayments';

/** GET /api/subscription: the current subscription (premium now), or null. */
export async function getSubscription(
  db: Database,
  providers: ProvidersById,
  userId: string,
  now = new Date(),
): Promise<Subscription | null> {
  const current = await findCurrentSubscription(db, userId, now);
  return current ? presentSubscriptionDetail(current, now, renewsWith(providers, current.provider)) : null;
}

/**
 * Stops the renewal of the current subscription; premium lasts until the period's end.
 * Stripe through its API (cancel_at_period_end), the sandbox locally, crypto simply does not
 * renew. Without a current subscription: `{status: 'none', ends_at: null}`. The provider's
 * API failing → 502 `payment_error` (logged), nothing changed here.
 */
export async function cancelSubscription(
  db: Database,
  providers: ProvidersById,
  userId: string,
  now = new Date(),
  log?: ProviderErrorLog,
): Promise<{ status: SubscriptionRow['status'] | 'none'; ends_at: string | null }> {
  const current = await findCurrentSubscription(db, userId, now);
  if (!current) return { status: 'none', ends_at: null };
  if (current.status !== 'cancelled') {
    const provider = providers[current.provider];
    if (provider && !current.cancelAtPeriodEnd)
      await callProvider(provider, 'cancel', () => provider.cancelSubscription(current.providerSubscriptionId), log);
    // Cancelled during the trial, premium ends with the trial (nothing was paid; Stripe's own
    // trial period already ends there). The provider's webhook confirms it later; the state
    // time is kept so that webhook wins.
    const trialEnd = current.trialEndsAt && current.trialEndsAt > now ? current.trialEndsAt : null;
    const endsAt = trialEnd && trialEnd < current.currentPeriodEnd ? trialEnd : current.currentPeriodEnd;
    const row = await updateSubscription(db, current.id, {
      status: 'cancelled',
      cancelAtPeriodEnd: true,
      currentPeriodEnd: endsAt,
    });
    return { status: 'cancelled', ends_at: row.currentPeriodEnd.toISOString() };
  }
  return { status: 'cancelled', ends_at: current.currentPeriodEnd.toISOString() };
}

/**
 * Undoes a cancel before the period ends: the subscription renews again (Stripe through its
 * API). 409 `cannot_resume` when there is nothing to resume or the provider does not renew;
 * the provider's API failing → 502 `payment_error` (logged), nothing changed here.
 */
export async function resumeSubscription(
  db: Database,
  providers: ProvidersById,
  userId: string,
  now = new Date(),
  log?: ProviderErrorLog,
): Promise<Subscription> {
  const current = await findCurrentSubscription(db, userId, now);
  if (!current) throw new AppError('cannot_resume', { status: 409 });
  const renews = renewsWith(providers, current.provider);
  if (current.status === 'cancelled' || current.cancelAtPeriodEnd) {
    const provider = providers[current.provider];
    if (!renews || !provider) throw new AppError('cannot_resume', { status: 409 });
    await callProvider(provider, 'resume', () => provider.resumeSubscription(current.providerSubscriptionId), log);
    const trialing = current.trialEndsAt !== null && current.trialEndsAt > now;
    const row = await updateSubscription(db, current.id, {
      status: trialing ? 'trialing' : 'active',
      cancelAtPeriodEnd: false,
      // The sandbox's trial includes its first paid period, which a cancel in the trial took away.
      ...(trialing && current.provider === 'sandbox'
        ? { currentPeriodEnd: addInterval(current.trialEndsAt!, SUBSCRIPTION_CATALOGUE[current.plan].interval) }
        : {}),
    });
    return presentSubscriptionDetail(row, now, renews);
  }
  // Not cancelled: nothing to undo, the answer is the current state.
  return presentSubscriptionDetail(current, now, renews);
}

/**
 * The one crediting path: every verified provider event goes through here, inside one
 * transaction with the record of its event id, so a redelivered or concurrent duplicate
 * changes nothing.
 */
export async function handlePaymentEvent(
  db: Database,
  providerId: PaymentProviderId,
  event: PaymentEvent,
  now = new Date(),
): Promise<{ duplicate: boolean; refusedSubscriptionId: string | null }> {
  return db.transaction(async (tx) => {
    const fresh = await recordWebhookEvent(tx, providerId, event.id, event.type);
    if (!fresh) return { duplicate: true, refusedSubscriptionId: null };
    let refusedSubscriptionId: string | null = null;
    switch (event.type) {
      case 'payment.succeeded': {
        const payment = await settlePayment(tx, event.paymentId, 'paid', event.providerRef);
        if (payment && payment.userId) await fulfilPayment(tx, payment, now);
        break;
      }
      case 'payment.failed':
        await settlePayment(tx, event.paymentId, 'failed', null);
        break;
      case 'subscription.updated':
        refusedSubscriptionId = await applySubscriptionEvent(tx, providerId, event, now);
        break;
      case 'ignored':
        break;
    }
    return { duplicate: false, refusedSubscriptionId };
  });
}

/**
 * One account never holds two subscriptions: with the user's row locked (so concurrent
 * activations on any replica take turns), a live subscription refuses a new one.
 */
async function hasLiveSubscription(tx: Database, userId: string, now: Date): Promise<boolean> {
  if (!(await lockUser(tx, userId))) return true;
  return (await findCurrentSubscription(tx, userId, now)) !== null;
}

async function fulfilPayment(tx: Database, payment: PaymentRow, now: Date): Promise<void> {
  const userId = payment.userId!;
  const plan = payment.plan as PlanId;
  if (!isSubscriptionPlan(plan)) {
    await applyLedgerEntry(tx, {
      userId,
      amount: PACK_CATALOGUE[plan as PackId].desires,
      reason: 'purchase',
      reference: payment.id,
      idempotencyKey: `purchase:${payment.id}`,
    });
    return;
  }
  // Stripe subscriptions arrive as subscription events; the sandbox and crypto grant a period here.
  if (payment.provider === 'stripe') return;
  if (await hasLiveSubscription(tx, userId, now)) {
    // Paid, but no second subscription and no second grant: the operator refunds it.
    await flagPaymentForRefund(tx, payment.id, DUPLICATE_SUBSCRIPTION);
    return;
  }
  const period = addInterval(now, SUBSCRIPTION_CATALOGUE[plan].interval);
  const trial = payment.provider === 'sandbox';
  const trialEndsAt = trial ? new Date(now.getTime() + SUBSCRIPTION_CATALOGUE[plan].trial_days * DAY_MS) : null;
  const { row } = await lockOrCreateSubscription(tx, {
    userId,
    provider: payment.provider,
    providerSubscriptionId: `${payment.provider}_${payment.id}`,
    plan,
    status: trial ? 'trialing' : 'active',
    trialEndsAt,
    currentPeriodEnd: trialEndsAt ? addInterval(trialEndsAt, SUBSCRIPTION_CATALOGUE[plan].interval) : period,
    // Crypto is prepaid for one period and does not renew.
    cancelAtPeriodEnd: !trial,
    stateAt: now,
  });
  await grantActivation(tx, row);
}

async function applySubscriptionEvent(
  tx: Database,
  providerId: PaymentProviderId,
  event: Extract<PaymentEvent, { type: 'subscription.updated' }>,
  now: Date,
): Promise<string | null> {
  // A subscription for an unknown (or deleted) account is acknowledged and skipped, so the
  // provider stops retrying it.
  // The user's row lock comes first: concurrent events of one account (Stripe sends
  // `created` and `updated` within milliseconds, often to two replicas) take turns here, so
  // the lookup by id below sees a subscription the other event has just recorded.
  if (!/^[0-9a-f-]{36}$/i.test(event.userId) || !(await lockUser(tx, event.userId))) return null;
  // A subscription we refused (its payment flagged, stopped at the provider) stays refused:
  // its later events (deleted, or updated after a failed stop) never record or grant anything.
  if (await isRefusedSubscription(tx, providerId, event.providerSubscriptionId)) return null;
  const known = await findSubscriptionByRef(tx, providerId, event.providerSubscriptionId);
  if (
    !known &&
    !event.ended &&
    event.currentPeriodEnd > now &&
    (await findCurrentSubscription(tx, event.userId, now)) !== null
  ) {
    // A second subscription of the same account: not recorded, no grant; its checkout's
    // payment is flagged for refund (remembering the subscription id) and the caller stops
    // it at the provider at once.
    if (event.paymentId)
      await flagPaymentForRefund(tx, event.paymentId, DUPLICATE_SUBSCRIPTION, {
        provider: providerId,
        userId: event.userId,
        providerRef: event.providerSubscriptionId,
      });
    return event.providerSubscriptionId;
  }
  const values = {
    userId: event.userId,
    provider: providerId,
    providerSubscriptionId: event.providerSubscriptionId,
    plan: event.plan,
    status: event.status,
    trialEndsAt: event.trialEndsAt,
    currentPeriodEnd: event.currentPeriodEnd,
    cancelAtPeriodEnd: event.cancelAtPeriodEnd,
    stateAt: event.occurredAt,
  };
  const { row, created } = await lockOrCreateSubscription(tx, values);
  let current = row;
  if (!created) {
    const endedForGood = row.status === 'cancelled' && !row.cancelAtPeriodEnd;
    const older = event.occurredAt < row.stateAt;
    // An ended subscription never revives (a late "updated" after "deleted").
    if (older || (endedForGood && !event.ended)) return null;
    current = await updateSubscription(tx, row.id, values);
  }
  // Premium has begun when the subscription gives it now — even if the first state we see
  // is already "cancelled at period end" (events out of order).
  const givesPremium = !(current.status === 'cancelled' && !current.cancelAtPeriodEnd) && current.status !== 'past_due';
  if (givesPremium && current.currentPeriodEnd > now) await grantActivation(tx, current);
  return null;
}

/** Premium's 100 desires at activation, once per subscription. */
async function grantActivation(tx: Database, subscription: SubscriptionRow): Promise<void> {
  await applyLedgerEntry(tx, {
    userId: subscription.userId,
    amount: PREMIUM_GRANT_AMOUNT,
    reason: 'premium_activation',
    reference: subscription.id,
    idempotencyKey: `premium_activation:${subscription.id}`,
  });
}

function addInterval(from: Date, interval: 'month' | 'year'): Date {
  const d = new Date(from);
  if (interval === 'month') d.setUTCMonth(d.getUTCMonth() + 1);
  else d.setUTCFullYear(d.getUTCFullYear() + 1);
  return d;
}

export type { SubscriptionPlanId };
