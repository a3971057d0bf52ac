import {
  BILLING_CURRENCY,
  DAILY_CLAIM_AMOUNT,
  DAILY_CLAIM_INTERVAL_MS,
  isSubscriptionPlan,
  planAmountCents,
  PREMIUM_GRANT_AMOUNT,
  SUBSCRIPTION_CATALOGUE,
  type PlanId,
  type PaymentStatus,
  type Plans,
  type SandboxPayment,
  type Subscription,
} from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import type {
  PaymentEvent,
  PaymentProvider,
  PaymentProviderId,
  PaymentProviders,
} from '../../providers/payments/index.js';
import {
  findCurrentSubscription,
  findLastClaim,
  hasHadSubscription,
  findPayment,
  findUserEmail,
  insertPayment,
  setPaymentProviderRef,
  settlePayment,
  takeDailyClaim,
  updateSubscription,
  type PaymentRow,
  type SubscriptionRow,
} from './billing.repository.js';
import { applyLedgerEntry, hasLedgerEntry, hasLedgerEntrySince, readBalance } from './ledger.repository.js';
import { creditDesires } from './ledger.js';
import { hasPremium } from './premium.js';
import { addInterval, applyPaymentEvent, beginSandboxPaidPeriod, type PaymentEventOutcome } from './payment-events.js';
import {
  presentPaymentStatus,
  presentPlans,
  presentSandboxPayment,
  presentSubscription,
  presentSubscriptionDetail,
  type BillingProfile,
} from './billing.presenter.js';
import {
  pruneWebhookDeliveries,
  recordWebhookDelivery,
  type WebhookDeliveryInput,
} from './webhook-deliveries.repository.js';

const utcDay = (d: Date) => d.toISOString().slice(0, 10);
const startOfUtcDay = (d: Date) => new Date(`${utcDay(d)}T00:00:00.000Z`);

type ProvidersById = Partial<Record<PaymentProviderId, PaymentProvider>>;

/** Where a provider's failure is logged (Fastify's `request.log` fits). */
export interface ProviderErrorLog {
  error(details: object, message: string): void;
}

/** Where a refused duplicate subscription is logged (Fastify's `request.log` fits). */
export interface RefusalLog extends ProviderErrorLog {
  warn(details: object, message: string): void;
}

export interface BillingServiceDeps {
  db: Database;
  /** The payment providers the settings configure (tests pass fakes). */
  payments: Pick<PaymentProviders, 'card' | 'crypto' | 'byId'>;
  /** The site's address: where providers send the browser back. */
  publicUrl: string;
}

/** Where a provider sends the browser back: the page the buyer started from, with the outcome. */
export function checkoutReturnUrl(
  publicUrl: string,
  returnPath: string | null,
  outcome: 'success' | 'failed',
  plan: PlanId,
  paymentId?: string,
): string {
  const base = publicUrl.replace(/\/$/, '');
  // returnPath passed isSafeReturnPath (relative, same origin), so it only adds a path and query.
  const url = new URL(`${base}${returnPath ?? '/'}`);
  url.searchParams.set('purchase', outcome);
  url.searchParams.set('plan', plan);
  // The web asks whether this payment is already credited (GET /api/billing/payments/:id).
  if (paymentId) url.searchParams.set('payment', paymentId);
  return url.toString();
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

/**
 * Whether a subscription renews (so a cancel can be undone): its provider's say (crypto is
 * prepaid once), and the sandbox's only after a trial — its prepaid crypto period and its
 * no-trial card period are one period each that never renews (docs/billing.md).
 */
const renewsWith = (providers: ProvidersById, row: SubscriptionRow) =>
  (providers[row.provider]?.renews ?? row.provider !== 'nowpayments') &&
  !(row.provider === 'sandbox' && row.trialEndsAt === null);

/**
 * Desires, premium and payments (docs/billing.md): the daily claim, checkouts, the current
 * subscription, cancel and resume, and the one crediting path of verified provider events.
 */
export class BillingService {
  constructor(private readonly deps: BillingServiceDeps) {}

  /** True while a subscription period (trial included, cancelled included) has not ended. */
  hasPremium(userId: string, now = new Date()): Promise<boolean> {
    return hasPremium(this.deps.db, userId, now);
  }

  /**
   * The plans and packs on sale, with the payment kinds this site offers and whether a card
   * subscription of this user starts with the free trial (a guest's new account would).
   */
  async plans(userId: string | null = null): Promise<Plans> {
    const { payments } = this.deps;
    const trialAvailable = userId ? !(await hasHadSubscription(this.deps.db, userId)) : true;
    return presentPlans({ card: payments.card !== null, crypto: payments.crypto !== null }, trialAvailable);
  }

  /** The free trial days a checkout of this kind and plan starts for this user (0: charged at once). */
  private async trialDaysFor(kind: 'card' | 'crypto', userId: string, plan: PlanId): Promise<number> {
    // Crypto is prepaid: never a trial. One trial per account (and per card, checked on the
    // provider's subscription event).
    if (kind !== 'card' || !isSubscriptionPlan(plan)) return 0;
    if (await hasHadSubscription(this.deps.db, userId)) return 0;
    return SUBSCRIPTION_CATALOGUE[plan].trial_days;
  }

  /** The daily claim: 100 desires once every 24 h (spec §9). */
  async claimDailyDesires(
    userId: string,
    now = new Date(),
  ): Promise<{ claimed: boolean; next_at: string; num_tokens: number }> {
    return this.deps.db.transaction(async (tx) => {
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

  /**
   * Premium's 100 desires for each day the user logs in: once per UTC day, idempotent. The
   * day of activation counts as granted (the activation gave its 100). `getBillingProfile`
   * calls this.
   */
  async grantDailyPremiumDesires(userId: string, now = new Date()): Promise<{ granted: boolean; balance: number }> {
    const { db } = this.deps;
    let subscription = await findCurrentSubscription(db, userId, now);
    if (!subscription) return { granted: false, balance: await readBalance(db, userId) };
    if (
      subscription.provider === 'sandbox' &&
      subscription.status === 'trialing' &&
      subscription.trialEndsAt &&
      subscription.trialEndsAt <= now
    ) {
      // The sandbox has no clock of its own: its trial's end is settled when the user is next seen.
      const trialing = subscription;
      await db.transaction((tx) => beginSandboxPaidPeriod(tx, trialing));
      subscription = (await findCurrentSubscription(db, userId, now)) ?? subscription;
    }
    const notNow = async () => ({ granted: false, balance: await readBalance(db, userId) });
    if (await hasLedgerEntrySince(db, userId, 'premium_activation', startOfUtcDay(now))) return notNow();
    // During the free trial the daily grant is given once (100 desires in all for the trial).
    const inTrial = subscription.trialEndsAt !== null && subscription.trialEndsAt > now;
    if (inTrial && (await hasLedgerEntry(db, userId, 'premium_daily', subscription.id))) return notNow();
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
  async getBillingProfile(userId: string, now = new Date()): Promise<BillingProfile> {
    const { db } = this.deps;
    await this.grantDailyPremiumDesires(userId, now);
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

  /**
   * Starts a checkout with the provider of that kind and answers where to send the browser. No
   * provider (buying is off on this site) → 503 `payments_not_configured`; a subscription plan
   * while one is current (even cancelled, until it ends) → 409 `already_subscribed`.
   */
  async startCheckout(
    kind: 'card' | 'crypto',
    input: { userId: string; plan: PlanId; returnPath?: string | null; now?: Date },
  ): Promise<{ url: string; paymentId: string }> {
    const { db, publicUrl } = this.deps;
    const provider = this.deps.payments[kind];
    if (!provider) throw new AppError('payments_not_configured', { status: 503 });
    const now = input.now ?? new Date();
    if (isSubscriptionPlan(input.plan) && (await findCurrentSubscription(db, input.userId, now)))
      throw new AppError('already_subscribed', { status: 409 });
    const trialDays = await this.trialDaysFor(kind, input.userId, input.plan);
    const payment = await insertPayment(db, {
      userId: input.userId,
      provider: provider.id,
      plan: input.plan,
      // What this payment charges: nothing for a trial (the first period is charged at its end).
      amountCents: trialDays > 0 ? 0 : planAmountCents(input.plan),
      trialDays,
      currency: BILLING_CURRENCY,
    });
    const returnPath = input.returnPath ?? null;
    try {
      const { url, providerRef } = await provider.createCheckout({
        paymentId: payment.id,
        plan: input.plan,
        amountCents: planAmountCents(input.plan),
        trialDays,
        currency: payment.currency,
        userId: input.userId,
        email: await findUserEmail(db, input.userId),
        successUrl: checkoutReturnUrl(publicUrl, returnPath, 'success', input.plan, payment.id),
        cancelUrl: checkoutReturnUrl(publicUrl, returnPath, 'failed', input.plan, payment.id),
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

  /** GET /api/subscription: the current subscription (premium now), or null. */
  async getSubscription(userId: string, now = new Date()): Promise<Subscription | null> {
    const current = await findCurrentSubscription(this.deps.db, userId, now);
    return current ? presentSubscriptionDetail(current, now, renewsWith(this.deps.payments.byId, current)) : null;
  }

  /**
   * Stops the renewal of the current subscription; premium lasts until the period's end.
   * Stripe through its API (cancel_at_period_end), the sandbox locally, crypto simply does not
   * renew. Without a current subscription: `{status: 'none', ends_at: null}`. The provider's
   * API failing → 502 `payment_error` (logged), nothing changed here.
   */
  async cancelSubscription(
    userId: string,
    now = new Date(),
    log?: ProviderErrorLog,
  ): Promise<{ status: SubscriptionRow['status'] | 'none'; ends_at: string | null }> {
    const { db } = this.deps;
    const current = await findCurrentSubscription(db, userId, now);
    if (!current) return { status: 'none', ends_at: null };
    if (current.status !== 'cancelled') {
      const provider = this.deps.payments.byId[current.provider];
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
  async resumeSubscription(userId: string, now = new Date(), log?: ProviderErrorLog): Promise<Subscription> {
    const { db } = this.deps;
    const providers = this.deps.payments.byId;
    const current = await findCurrentSubscription(db, userId, now);
    if (!current) throw new AppError('cannot_resume', { status: 409 });
    const renews = renewsWith(providers, current);
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
  handlePaymentEvent(
    providerId: PaymentProviderId,
    event: PaymentEvent,
    now = new Date(),
  ): Promise<PaymentEventOutcome> {
    return this.deps.db.transaction((tx) => applyPaymentEvent(tx, providerId, event, now));
  }

  /**
   * A trial the card, customer or account already had (one free trial per person): the
   * provider ends it now, so the first period is charged at once; a failure is logged.
   */
  async endRepeatedTrial(provider: PaymentProvider, subscriptionId: string, log: RefusalLog): Promise<void> {
    log.warn({ provider: provider.id, subscription: subscriptionId }, 'repeated free trial ended');
    await provider.endTrial?.(subscriptionId).catch((error: unknown) => {
      log.error({ err: error, subscription: subscriptionId }, 'could not end a repeated free trial');
    });
  }

  /** A payment's outcome for its payer (the checkout return): 404 for anyone else's. */
  async paymentStatus(id: string, userId: string): Promise<PaymentStatus> {
    const payment = await findPayment(this.deps.db, id);
    if (!payment || payment.userId !== userId) throw new AppError('not_found', { status: 404 });
    // Credited: the desires are in, or (a plan) premium is on — Stripe's subscription event may
    // come after its checkout's.
    const fulfilled =
      payment.status === 'paid' &&
      !payment.refundReason &&
      (!isSubscriptionPlan(payment.plan) || (await hasPremium(this.deps.db, userId, new Date())));
    return presentPaymentStatus(payment, fulfilled);
  }

  /**
   * A second subscription of one account, refused by `handlePaymentEvent`: ended at the
   * provider at once (its payment is flagged for refund, its later events are ignored); a
   * failure is logged for the operator, the event stays handled.
   */
  async stopRefusedSubscription(provider: PaymentProvider, subscriptionId: string, log: RefusalLog): Promise<void> {
    log.warn({ provider: provider.id, subscription: subscriptionId }, 'duplicate subscription refused');
    await provider.stopSubscription(subscriptionId).catch((error: unknown) => {
      log.error({ err: error, subscription: subscriptionId }, 'could not stop a duplicate subscription');
    });
  }

  /** Records a verified webhook delivery for the admin console (never its body or a secret). */
  recordWebhookDelivery(delivery: WebhookDeliveryInput): Promise<void> {
    return recordWebhookDelivery(this.deps.db, delivery);
  }

  /** Deletes the webhook deliveries received before `before`; answers how many. */
  pruneWebhookDeliveries(before: Date): Promise<number> {
    return pruneWebhookDeliveries(this.deps.db, before);
  }

  /** A sandbox payment of its payer; 404 for anyone else's (the payment is not theirs to see). */
  async findOwnSandboxPayment(id: string, userId: string): Promise<PaymentRow> {
    const payment = await findPayment(this.deps.db, id);
    if (!payment || payment.provider !== 'sandbox' || payment.userId !== userId)
      throw new AppError('not_found', { status: 404 });
    return payment;
  }

  /** A sandbox checkout as its page shows it. */
  async getSandboxPayment(id: string, userId: string, now = new Date()): Promise<SandboxPayment> {
    return presentSandboxPayment(await this.findOwnSandboxPayment(id, userId), now);
  }

  /** A payment's outcome after its webhook (the sandbox page's answer). */
  async settledSandboxPayment(id: string): Promise<{ status: PaymentRow['status']; refunded: boolean }> {
    const settled = await findPayment(this.deps.db, id);
    return { status: settled?.status ?? 'failed', refunded: Boolean(settled?.refundReason) };
  }
}
