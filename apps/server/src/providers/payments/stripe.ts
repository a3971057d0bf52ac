import type { IncomingHttpHeaders } from 'node:http';
import Stripe from 'stripe';
import { isSubscriptionPlan, SUBSCRIPTION_CATALOGUE, type SubscriptionPlanId } from '@reverie/shared';
import { AppError } from '../../lib/errors.js';
import { invalidSignature } from './sandbox.js';
import type { CheckoutInput, PaymentEvent, PaymentProvider, SubscriptionStatus } from './types.js';

export interface StripeOptions {
  secretKey: string;
  webhookSecret: string;
  /** Tests point the official SDK at a fake Stripe server. */
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
}

const PLAN_NAMES: Record<string, string> = {
  monthly: 'Premium (monthly)',
  annual: 'Premium (annual)',
  pack_350: '350 desires',
  pack_1000: '1 000 desires',
  pack_3000: '3 000 desires',
};

/**
 * Stripe Checkout for subscriptions (with the free trial) and one-time packs. Webhooks are
 * verified on the raw body with the SDK. Note PRODUCT.md §2: Stripe's terms exclude adult
 * content; an adult-friendly card processor can replace this class behind the same interface.
 */
export class StripePaymentProvider implements PaymentProvider {
  readonly id = 'stripe' as const;
  readonly renews = true;
  private readonly stripe: Stripe;

  constructor(private readonly options: StripeOptions) {
    this.stripe = new Stripe(options.secretKey, {
      host: options.host,
      port: options.port,
      protocol: options.protocol,
      maxNetworkRetries: 1,
      timeout: 20_000,
    });
  }

  async createCheckout(input: CheckoutInput) {
    const subscription = isSubscriptionPlan(input.plan);
    const metadata = { payment_id: input.paymentId, user_id: input.userId, plan: input.plan };
    const session = await this.stripe.checkout.sessions.create({
      mode: subscription ? 'subscription' : 'payment',
      client_reference_id: input.paymentId,
      customer_email: input.email ?? undefined,
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      metadata,
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: input.currency,
            unit_amount: input.amountCents,
            product_data: { name: PLAN_NAMES[input.plan] ?? input.plan },
            ...(subscription
              ? { recurring: { interval: SUBSCRIPTION_CATALOGUE[input.plan as SubscriptionPlanId].interval } }
              : {}),
          },
        },
      ],
      ...(subscription
        ? {
            // The free trial only for an account that never had one; a returning subscriber
            // pays the first period at once.
            subscription_data: input.trialDays > 0 ? { trial_period_days: input.trialDays, metadata } : { metadata },
          }
        : { payment_intent_data: { metadata } }),
    });
    if (!session.url) throw new AppError('payment_error', { status: 502 });
    return { url: session.url, providerRef: session.id };
  }

  async cancelSubscription(providerSubscriptionId: string): Promise<void> {
    await this.stripe.subscriptions.update(providerSubscriptionId, { cancel_at_period_end: true });
  }

  async stopSubscription(providerSubscriptionId: string): Promise<void> {
    // DELETE /v1/subscriptions/:id: ends it now (a trial then never charges).
    await this.stripe.subscriptions.cancel(providerSubscriptionId);
  }

  async resumeSubscription(providerSubscriptionId: string): Promise<void> {
    await this.stripe.subscriptions.update(providerSubscriptionId, { cancel_at_period_end: false });
  }

  async endTrial(providerSubscriptionId: string): Promise<void> {
    // The trial ends now: Stripe invoices the first period at once.
    await this.stripe.subscriptions.update(providerSubscriptionId, { trial_end: 'now', proration_behavior: 'none' });
  }

  async cardFingerprint(paymentMethodId: string): Promise<string | null> {
    const method = await this.stripe.paymentMethods.retrieve(paymentMethodId);
    return method.card?.fingerprint ?? null;
  }

  async invoiceChargeRef(invoiceId: string): Promise<string | null> {
    const list = await this.stripe.invoicePayments.list({ invoice: invoiceId, status: 'paid', limit: 10 });
    const paid = list.data.find((p) => p.payment?.payment_intent || p.payment?.charge);
    return idOf(paid?.payment?.payment_intent) ?? idOf(paid?.payment?.charge);
  }

  async invoiceOfCharge(chargeRef: string): Promise<string | null> {
    if (!chargeRef.startsWith('pi_')) return null;
    const list = await this.stripe.invoicePayments.list({
      payment: { type: 'payment_intent', payment_intent: chargeRef },
      limit: 1,
    });
    return idOf(list.data[0]?.invoice);
  }

  parseWebhook(rawBody: Buffer, headers: IncomingHttpHeaders): PaymentEvent {
    const header = headers['stripe-signature'];
    const signature = Array.isArray(header) ? header[0] : header;
    if (!signature) throw invalidSignature();
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signature, this.options.webhookSecret);
    } catch {
      throw invalidSignature();
    }
    return normaliseStripeEvent(event);
  }
}

/** Maps the Stripe events we act on; every other type is acknowledged and ignored. */
export function normaliseStripeEvent(event: Stripe.Event): PaymentEvent {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = event.data.object;
      const paymentId = session.client_reference_id ?? session.metadata?.payment_id;
      if (!paymentId) return { type: 'ignored', id: event.id, reason: 'no payment id' };
      // A trial checkout needs no payment; a pack is credited only once the money is in.
      const settled =
        session.payment_status === 'paid' ||
        (session.mode === 'subscription' && session.payment_status === 'no_payment_required');
      if (!settled) return { type: 'ignored', id: event.id, reason: 'payment not settled yet' };
      return {
        type: 'payment.succeeded',
        id: event.id,
        paymentId,
        providerRef: session.id,
        amountCents: typeof session.amount_total === 'number' ? session.amount_total : null,
        chargeRef: idOf(session.payment_intent),
      };
    }
    case 'checkout.session.expired':
    case 'checkout.session.async_payment_failed': {
      const session = event.data.object;
      const paymentId = session.client_reference_id ?? session.metadata?.payment_id;
      if (!paymentId) return { type: 'ignored', id: event.id, reason: 'no payment id' };
      return { type: 'payment.failed', id: event.id, paymentId };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
    case 'customer.subscription.paused':
    case 'customer.subscription.resumed': {
      const sub = event.data.object;
      const userId = sub.metadata?.user_id;
      const plan = sub.metadata?.plan;
      if (!userId || (plan !== 'monthly' && plan !== 'annual'))
        return { type: 'ignored', id: event.id, reason: 'subscription without our metadata' };
      const mapped = mapStripeStatus(sub.status, sub.cancel_at_period_end);
      if (!mapped) return { type: 'ignored', id: event.id, reason: `status ${sub.status}` };
      const ended = event.type === 'customer.subscription.deleted' || mapped.ended;
      const periodEndS =
        (sub as unknown as { current_period_end?: number }).current_period_end ??
        sub.items?.data?.[0]?.current_period_end ??
        sub.trial_end ??
        event.created;
      const endedAtS = sub.ended_at ?? sub.canceled_at ?? event.created;
      return {
        type: 'subscription.updated',
        id: event.id,
        occurredAt: new Date(event.created * 1000),
        userId,
        plan,
        providerSubscriptionId: sub.id,
        status: ended ? 'cancelled' : mapped.status,
        ended,
        paid: sub.status === 'active',
        trialEndsAt: sub.trial_end ? new Date(sub.trial_end * 1000) : null,
        currentPeriodEnd: new Date((ended ? endedAtS : periodEndS) * 1000),
        cancelAtPeriodEnd: ended ? false : sub.cancel_at_period_end,
        paymentId: sub.metadata?.payment_id ?? null,
        payer: {
          customerId: idOf(sub.customer),
          paymentMethodId: idOf(sub.default_payment_method),
          cardFingerprint:
            typeof sub.default_payment_method === 'object'
              ? (sub.default_payment_method?.card?.fingerprint ?? null)
              : null,
        },
      };
    }
    case 'invoice.paid': {
      // The money of a later period (after the trial, a renewal). The first invoice of a
      // subscription is the checkout's own payment (its session says what it charged).
      const invoice = event.data.object;
      const metadata = invoice.parent?.subscription_details?.metadata ?? {};
      const plan = metadata.plan;
      if (invoice.billing_reason === 'subscription_create' || invoice.amount_paid <= 0)
        return { type: 'ignored', id: event.id, reason: 'nothing charged beyond the checkout' };
      if (!metadata.user_id || (plan !== 'monthly' && plan !== 'annual') || !invoice.id)
        return { type: 'ignored', id: event.id, reason: 'invoice without our metadata' };
      // The invoice's payments are in the event only when expanded; else the route asks Stripe.
      const paid = invoice.payments?.data?.find((p) => p.payment?.payment_intent || p.payment?.charge)?.payment;
      const named = idOf(paid?.payment_intent) ?? idOf(paid?.charge);
      return {
        type: 'charge.succeeded',
        id: event.id,
        userId: metadata.user_id,
        plan,
        chargeRef: named ?? invoice.id,
        amountCents: invoice.amount_paid,
        currency: invoice.currency,
        invoiceId: named ? null : invoice.id,
      };
    }
    case 'charge.refunded': {
      const charge = event.data.object;
      const chargeRef = idOf(charge.payment_intent) ?? charge.id ?? null;
      const paymentId = charge.metadata?.payment_id ?? null;
      if (!chargeRef && !paymentId) return { type: 'ignored', id: event.id, reason: 'refund of an unknown charge' };
      return { type: 'payment.refunded', id: event.id, paymentId, chargeRef, refundedCents: charge.amount_refunded };
    }
    default:
      return { type: 'ignored', id: event.id, reason: `unhandled type ${event.type}` };
  }
}

/** The id of an expandable Stripe field (an id or the object). */
const idOf = (value: string | { id?: string } | null | undefined): string | null =>
  typeof value === 'string' ? value : (value?.id ?? null);

function mapStripeStatus(
  status: Stripe.Subscription.Status,
  cancelAtPeriodEnd: boolean,
): { status: SubscriptionStatus; ended: boolean } | null {
  switch (status) {
    case 'trialing':
      return { status: cancelAtPeriodEnd ? 'cancelled' : 'trialing', ended: false };
    case 'active':
      return { status: cancelAtPeriodEnd ? 'cancelled' : 'active', ended: false };
    case 'past_due':
    case 'unpaid':
      return { status: 'past_due', ended: false };
    case 'canceled':
    case 'incomplete_expired':
      return { status: 'cancelled', ended: true };
    default:
      // incomplete, paused: no premium change until a decisive state arrives.
      return null;
  }
}
