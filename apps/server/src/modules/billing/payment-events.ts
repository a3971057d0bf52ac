import { createHash } from 'node:crypto';
import {
  PACK_CATALOGUE,
  PREMIUM_GRANT_AMOUNT,
  SUBSCRIPTION_CATALOGUE,
  isSubscriptionPlan,
  planAmountCents,
} from '@reverie/shared';
import type { PackId, PlanId } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import type { PaymentEvent, PaymentProviderId } from '../../providers/payments/index.js';
import {
  beginPaidPeriod,
  findCurrentSubscription,
  findSubscriptionByRef,
  flagPaymentForRefund,
  hasHadSubscription,
  insertChargeOnce,
  isRefusedSubscription,
  isTrialRecorded,
  isTrialUsedBy,
  lockOrCreateSubscription,
  lockUser,
  recordRefund,
  recordTrialUse,
  recordWebhookEvent,
  setPaymentCharge,
  settlePayment,
  updateSubscription,
  type PaymentRow,
  type SubscriptionRow,
} from './billing.repository.js';
import { applyLedgerEntry, hasLedgerEntry } from './ledger.repository.js';

/** `payments.refund_reason` of a second subscription's payment (one account, one subscription). */
export const DUPLICATE_SUBSCRIPTION = 'duplicate_subscription';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The one crediting path: every verified provider event goes through here, inside the
 * caller's transaction with the record of its event id, so a redelivered or concurrent
 * duplicate changes nothing (`BillingService.handlePaymentEvent` opens the transaction).
 */
export async function applyPaymentEvent(
  tx: Database,
  providerId: PaymentProviderId,
  event: PaymentEvent,
  now: Date,
): Promise<PaymentEventOutcome> {
  const fresh = await recordWebhookEvent(tx, providerId, event.id, event.type);
  if (!fresh) return { duplicate: true, refusedSubscriptionId: null, endTrialSubscriptionId: null };
  let outcome: Omit<PaymentEventOutcome, 'duplicate'> = { refusedSubscriptionId: null, endTrialSubscriptionId: null };
  switch (event.type) {
    case 'payment.succeeded': {
      const payment = await settlePayment(tx, event.paymentId, 'paid', event.providerRef, {
        amountCents: event.amountCents,
        chargeRef: event.chargeRef,
      });
      if (payment && payment.userId) await fulfilPayment(tx, payment, now);
      break;
    }
    case 'payment.failed':
      await settlePayment(tx, event.paymentId, 'failed', null);
      break;
    case 'subscription.updated':
      outcome = await applySubscriptionEvent(tx, providerId, event, now);
      break;
    case 'charge.succeeded':
      // Money of a later period: recorded once per charge (revenue counts it).
      if (/^[0-9a-f-]{36}$/i.test(event.userId) && (await lockUser(tx, event.userId)))
        await insertChargeOnce(tx, {
          userId: event.userId,
          provider: providerId,
          providerRef: event.chargeRef,
          chargeRef: event.chargeRef,
          plan: event.plan,
          amountCents: event.amountCents,
          currency: event.currency,
          status: 'paid',
        });
      break;
    case 'payment.refunded': {
      const refunded = await recordRefund(tx, providerId, event, event.refundedCents);
      // A refund before the money was in (crypto): the payment simply failed.
      if (!refunded && event.paymentId) await settlePayment(tx, event.paymentId, 'failed', null);
      break;
    }
    case 'ignored':
      break;
  }
  return { duplicate: false, ...outcome };
}

/** What the caller does at the provider after the transaction (both are logged on failure). */
export interface PaymentEventOutcome {
  duplicate: boolean;
  /** A second subscription of one account: stop it at once. */
  refusedSubscriptionId: string | null;
  /** A trial this card, customer or account already had: end the trial now (charged at once). */
  endTrialSubscriptionId: string | null;
}

/** A payer's identifier as stored: SHA-256, never the provider's raw value. */
const payerHash = (kind: 'card' | 'customer', value: string | null | undefined) =>
  value ? createHash('sha256').update(`${kind}:${value}`).digest('hex') : null;

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
  // The trial the checkout offered (the sandbox's card checkout of an account that never had
  // one; crypto never). Still one per account when the payment completes: a trial used in the
  // meantime (two checkouts) is not given again, the period is charged at once.
  let trial = payment.provider === 'sandbox' && payment.trialDays > 0;
  if (trial && (await hasHadSubscription(tx, userId))) {
    trial = false;
    await setPaymentCharge(tx, payment.id, planAmountCents(plan), 0);
  }
  const trialEndsAt = trial ? new Date(now.getTime() + payment.trialDays * DAY_MS) : null;
  const { row } = await lockOrCreateSubscription(tx, {
    userId,
    provider: payment.provider,
    providerSubscriptionId: `${payment.provider}_${payment.id}`,
    plan,
    status: trial ? 'trialing' : 'active',
    trialEndsAt,
    currentPeriodEnd: trialEndsAt ? addInterval(trialEndsAt, SUBSCRIPTION_CATALOGUE[plan].interval) : period,
    // Crypto is prepaid for one period and does not renew (nor does the sandbox without a trial).
    cancelAtPeriodEnd: !trial,
    stateAt: now,
  });
  if (trial)
    await recordTrialUse(tx, { userId, provider: payment.provider, subscriptionRef: row.providerSubscriptionId });
  // The activation grant comes with the first paid period: now, or when the trial ends.
  else await grantActivation(tx, row);
}

/**
 * The sandbox's trial ended without a cancel: its first period is "charged" (a paid payment
 * of the plan's price, so the console counts it like a real provider's charge) and the
 * activation grant given. Once: only the call that moves the row from `trialing` does it.
 */
export async function beginSandboxPaidPeriod(tx: Database, subscription: SubscriptionRow): Promise<void> {
  if (!subscription.trialEndsAt) return;
  const moved = await beginPaidPeriod(tx, subscription.id, subscription.trialEndsAt);
  if (!moved) return;
  await insertChargeOnce(tx, {
    userId: moved.userId,
    provider: 'sandbox',
    providerRef: moved.providerSubscriptionId,
    chargeRef: `${moved.providerSubscriptionId}:period_1`,
    plan: moved.plan,
    amountCents: SUBSCRIPTION_CATALOGUE[moved.plan].amount_cents,
    currency: 'usd',
    status: 'paid',
  });
  await grantActivation(tx, moved);
}

async function applySubscriptionEvent(
  tx: Database,
  providerId: PaymentProviderId,
  event: Extract<PaymentEvent, { type: 'subscription.updated' }>,
  now: Date,
): Promise<Omit<PaymentEventOutcome, 'duplicate'>> {
  const nothing = { refusedSubscriptionId: null, endTrialSubscriptionId: null };
  // A subscription for an unknown (or deleted) account is acknowledged and skipped, so the
  // provider stops retrying it.
  // The user's row lock comes first: concurrent events of one account (Stripe sends
  // `created` and `updated` within milliseconds, often to two replicas) take turns here, so
  // the lookup by id below sees a subscription the other event has just recorded.
  if (!/^[0-9a-f-]{36}$/i.test(event.userId) || !(await lockUser(tx, event.userId))) return nothing;
  // A subscription we refused (its payment flagged, stopped at the provider) stays refused:
  // its later events (deleted, or updated after a failed stop) never record or grant anything.
  if (await isRefusedSubscription(tx, providerId, event.providerSubscriptionId)) return nothing;
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
    return { refusedSubscriptionId: event.providerSubscriptionId, endTrialSubscriptionId: null };
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
    if (older || (endedForGood && !event.ended)) return nothing;
    current = await updateSubscription(tx, row.id, values);
  }
  const endTrialSubscriptionId = await checkTrial(tx, providerId, event, now);
  // The activation grant comes with the first paid period (not the trial) — even if the first
  // state we see is already "cancelled at period end" (events out of order).
  const givesPremium = !(current.status === 'cancelled' && !current.cancelAtPeriodEnd) && current.status !== 'past_due';
  if (event.paid && givesPremium && current.currentPeriodEnd > now) await grantActivation(tx, current);
  return { refusedSubscriptionId: null, endTrialSubscriptionId };
}

/**
 * One free trial per person: a subscription in its trial is checked against the account (had
 * it a subscription or a trial before this one?) and against the card fingerprint and the
 * customer the provider names (had another account's trial the same?). A first trial is
 * recorded; any other is ended at the provider (the caller asks it to charge now).
 */
async function checkTrial(
  tx: Database,
  providerId: PaymentProviderId,
  event: Extract<PaymentEvent, { type: 'subscription.updated' }>,
  now: Date,
): Promise<string | null> {
  if (event.ended || !event.trialEndsAt || event.trialEndsAt <= now || event.status === 'past_due') return null;
  const payer = {
    cardFingerprintHash: payerHash('card', event.payer?.cardFingerprint),
    customerHash: payerHash('customer', event.payer?.customerId),
  };
  const ref = event.providerSubscriptionId;
  const recorded = await isTrialRecorded(tx, providerId, ref);
  if (await isTrialUsedBy(tx, payer, ref)) return ref;
  if (!recorded && (await hasHadSubscription(tx, event.userId, { provider: providerId, ref }))) return ref;
  await recordTrialUse(tx, { userId: event.userId, provider: providerId, subscriptionRef: ref, ...payer });
  return null;
}

/** Premium's 100 desires at the first paid period: once per account (a returning subscriber gets none). */
async function grantActivation(tx: Database, subscription: SubscriptionRow): Promise<void> {
  if (await hasLedgerEntry(tx, subscription.userId, 'premium_activation')) return;
  await applyLedgerEntry(tx, {
    userId: subscription.userId,
    amount: PREMIUM_GRANT_AMOUNT,
    reason: 'premium_activation',
    reference: subscription.id,
    idempotencyKey: `premium_activation:user:${subscription.userId}`,
  });
}

export function addInterval(from: Date, interval: 'month' | 'year'): Date {
  const d = new Date(from);
  if (interval === 'month') d.setUTCMonth(d.getUTCMonth() + 1);
  else d.setUTCFullYear(d.getUTCFullYear() + 1);
  return d;
}
