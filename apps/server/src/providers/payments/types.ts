import type { IncomingHttpHeaders } from 'node:http';
import type { PlanId, SubscriptionPlanId } from '@reverie/shared';

export type PaymentProviderId = 'sandbox' | 'stripe' | 'nowpayments';
export type SubscriptionStatus = 'trialing' | 'active' | 'past_due' | 'cancelled';

/** What a checkout needs to know; amounts in integer cents. */
export interface CheckoutInput {
  /** Our payment record id; the provider echoes it back in its webhook. */
  paymentId: string;
  plan: PlanId;
  /** The plan's price (a subscription's price per period, charged after the trial if any). */
  amountCents: number;
  /**
   * Days of free trial (a card subscription of an account that never had one); 0: the first
   * period is charged at once (a returning subscriber, crypto, packs).
   */
  trialDays: number;
  currency: string;
  userId: string;
  email: string | null;
  successUrl: string;
  cancelUrl: string;
  /** The same-origin path the buyer started from (already checked by `isSafeReturnPath`). */
  returnPath: string | null;
}

/**
 * A provider's webhook, verified and normalised. Only these events move money or premium,
 * through the one crediting path (`applyPaymentEvent` in modules/billing/payment-events.ts).
 */
export type PaymentEvent =
  | {
      type: 'payment.succeeded';
      id: string;
      paymentId: string;
      providerRef: string | null;
      /** What the provider says it charged now (Stripe's `amount_total`: 0 for a trial), when it says. */
      amountCents?: number | null;
      /** The provider's charge id (Stripe payment intent), which its refund events name. */
      chargeRef?: string | null;
    }
  | { type: 'payment.failed'; id: string; paymentId: string }
  | {
      type: 'subscription.updated';
      id: string;
      /** When the provider produced this state; older states never overwrite newer ones. */
      occurredAt: Date;
      userId: string;
      plan: SubscriptionPlanId;
      providerSubscriptionId: string;
      status: SubscriptionStatus;
      /** True when the subscription is over for good (deleted), not only set to end. */
      ended: boolean;
      /** True in a paid period (Stripe `active`): not the trial, not unpaid. The activation grant waits for it. */
      paid: boolean;
      trialEndsAt: Date | null;
      currentPeriodEnd: Date;
      cancelAtPeriodEnd: boolean;
      /** Our payment record of the checkout that made this subscription, when known. */
      paymentId: string | null;
      /** Who pays, where the provider tells us (one free trial per card and per customer). */
      payer?: { customerId: string | null; paymentMethodId: string | null; cardFingerprint: string | null };
    }
  | {
      /** A later charge of a subscription (the first period after the trial, a renewal). */
      type: 'charge.succeeded';
      id: string;
      userId: string;
      plan: SubscriptionPlanId;
      /** The provider's id of the charge (Stripe: the payment intent, else the invoice). */
      chargeRef: string;
      amountCents: number;
      currency: string;
      /**
       * Set when the webhook did not name the charge (Stripe's `invoice.paid` carries its
       * payments only when expanded) and `chargeRef` is this invoice's id: the route asks the
       * provider for the payment intent (`invoiceChargeRef`), which the refund events name.
       */
      invoiceId?: string | null;
    }
  | {
      /** Money given back: `refundedCents` is the total refunded of that charge so far. */
      type: 'payment.refunded';
      id: string;
      paymentId: string | null;
      chargeRef: string | null;
      refundedCents: number;
      /**
       * The invoice the refunded charge paid, when the provider says (the route asks
       * `invoiceOfCharge`): a later charge recorded under its invoice id still matches.
       */
      invoiceRef?: string | null;
    }
  | { type: 'ignored'; id: string; reason: string };

/** One payment processor behind the same interface (PRODUCT.md §2). */
export interface PaymentProvider {
  readonly id: PaymentProviderId;
  /** Creates the provider's hosted checkout and answers where to send the browser. */
  createCheckout(input: CheckoutInput): Promise<{ url: string; providerRef: string | null }>;
  /** Whether its subscriptions renew (a cancel can be undone); crypto periods are prepaid once. */
  readonly renews: boolean;
  /** Stops renewal; premium lasts until the period's end. */
  cancelSubscription(providerSubscriptionId: string): Promise<void>;
  /**
   * Ends a subscription at once, without waiting for the period's end: a refused second
   * subscription of one account (it must not run on, nor be un-cancelled later).
   */
  stopSubscription(providerSubscriptionId: string): Promise<void>;
  /** Undoes a cancel before the period's end (renewal goes on). */
  resumeSubscription(providerSubscriptionId: string): Promise<void>;
  /**
   * Ends a trial at once, so the first period is charged now: a trial the card or customer
   * already had (one free trial per person). Providers without remote trials leave it out.
   */
  endTrial?(providerSubscriptionId: string): Promise<void>;
  /** The card fingerprint of a payment method, when the webhook named only its id. */
  cardFingerprint?(paymentMethodId: string): Promise<string | null>;
  /** The charge (payment intent) that paid an invoice, when the webhook did not name it. */
  invoiceChargeRef?(invoiceId: string): Promise<string | null>;
  /** The invoice a charge (payment intent) paid, if any. */
  invoiceOfCharge?(chargeRef: string): Promise<string | null>;
  /**
   * Verifies the signature over the raw body and normalises the event. Throws
   * `AppError('invalid_signature', 400)` when the signature is missing or wrong.
   */
  parseWebhook(rawBody: Buffer, headers: IncomingHttpHeaders): PaymentEvent;
}
