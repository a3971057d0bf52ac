import { PACK_CATALOGUE, PREMIUM_GRANT_AMOUNT, SUBSCRIPTION_CATALOGUE, isSubscriptionPlan } from '@reverie/shared';
import type { PackId, PlanId } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import type { PaymentEvent, PaymentProviderId } from '../../providers/payments/index.js';
import {
  findCurrentSubscription,
  findSubscriptionByRef,
  flagPaymentForRefund,
  isRefusedSubscription,
  lockOrCreateSubscription,
  lockUser,
  recordWebhookEvent,
  settlePayment,
  updateSubscription,
  type PaymentRow,
  type SubscriptionRow,
} from './billing.repository.js';
import { applyLedgerEntry } from './ledger.repository.js';

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
): Promise<{ duplicate: boolean; refusedSubscriptionId: string | null }> {
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

export function addInterval(from: Date, interval: 'month' | 'year'): Date {
  const d = new Date(from);
  if (interval === 'month') d.setUTCMonth(d.getUTCMonth() + 1);
  else d.setUTCFullYear(d.getUTCFullYear() + 1);
  return d;
}
