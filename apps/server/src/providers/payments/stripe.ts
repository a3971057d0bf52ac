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
            subscription_data: {
              trial_period_days: SUBSCRIPTION_CATALOGUE[input.plan as SubscriptionPlanId].trial_days,
              metadata,
            },
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
      return { type: 'payment.succeeded', id: event.id, paymentId, providerRef: session.id };
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
        trialEndsAt: sub.trial_end ? new Date(sub.trial_end * 1000) : null,
        currentPeriodEnd: new Date((ended ? endedAtS : periodEndS) * 1000),
        cancelAtPeriodEnd: ended ? false : sub.cancel_at_period_end,
        paymentId: sub.metadata?.payment_id ?? null,
      };
    }
    default:
      return { type: 'ignored', id: event.id, reason: `unhandled type ${event.type}` };
  }
}

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
