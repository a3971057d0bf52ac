import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { AppError } from '../../lib/errors.js';
import { invalidSignature } from './sandbox.js';
import type { CheckoutInput, PaymentEvent, PaymentProvider } from './types.js';

export interface NowPaymentsOptions {
  apiKey: string;
  ipnSecret: string;
  apiUrl: string;
  /** Where NOWPayments posts its IPN (our webhook route). */
  ipnCallbackUrl: string;
}

/** JSON with object keys sorted at every level, as NOWPayments signs it. */
export function sortedJson(value: unknown): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v as object)
              .sort()
              .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
          )
        : v;
  return JSON.stringify(sort(value));
}

/** The `x-nowpayments-sig` value: HMAC-SHA512 of the key-sorted body under the IPN secret. */
export function signNowPaymentsBody(secret: string, body: unknown): string {
  return createHmac('sha512', secret).update(sortedJson(body)).digest('hex');
}

/**
 * Crypto checkout through NOWPayments invoices. A subscription plan bought with crypto is one
 * prepaid period (crypto does not renew by itself). Credits only on `finished`.
 */
export class NowPaymentsProvider implements PaymentProvider {
  readonly id = 'nowpayments' as const;
  /** A crypto period is prepaid once and never renews, so there is no cancel to undo. */
  readonly renews = false;

  constructor(private readonly options: NowPaymentsOptions) {}

  async createCheckout(input: CheckoutInput) {
    const response = await fetch(`${this.options.apiUrl.replace(/\/$/, '')}/invoice`, {
      method: 'POST',
      headers: { 'x-api-key': this.options.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        price_amount: input.amountCents / 100,
        price_currency: input.currency,
        order_id: input.paymentId,
        order_description: input.plan,
        ipn_callback_url: this.options.ipnCallbackUrl,
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
      }),
      signal: AbortSignal.timeout(20_000),
    });
    if (!response.ok) throw new AppError('payment_error', { status: 502 });
    const invoice = (await response.json()) as { id?: string | number; invoice_url?: string };
    if (!invoice.invoice_url) throw new AppError('payment_error', { status: 502 });
    return { url: invoice.invoice_url, providerRef: invoice.id != null ? String(invoice.id) : null };
  }

  async cancelSubscription(): Promise<void> {
    // Crypto periods are prepaid and never renew; nothing to tell the provider.
  }

  async stopSubscription(): Promise<void> {
    // A refused crypto period is never created; the payment is refunded by the operator.
  }

  async resumeSubscription(): Promise<void> {
    throw new AppError('cannot_resume', { status: 409 });
  }

  parseWebhook(rawBody: Buffer, headers: IncomingHttpHeaders): PaymentEvent {
    const header = headers['x-nowpayments-sig'];
    const signature = Array.isArray(header) ? header[0] : header;
    if (!signature) throw invalidSignature();
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(rawBody.toString('utf8')) as Record<string, unknown>;
    } catch {
      throw invalidSignature();
    }
    const expected = Buffer.from(signNowPaymentsBody(this.options.ipnSecret, body), 'hex');
    const given = Buffer.from(signature, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidSignature();

    const status = String(body.payment_status ?? '');
    const paymentId = String(body.order_id ?? '');
    const id = `${String(body.payment_id ?? body.invoice_id ?? paymentId)}:${status}`;
    if (!paymentId) return { type: 'ignored', id, reason: 'no order id' };
    if (status === 'finished')
      return { type: 'payment.succeeded', id, paymentId, providerRef: String(body.payment_id ?? '') || null };
    // A refund of a paid invoice gives the money back (revenue subtracts it); before it was
    // paid it simply failed.
    if (status === 'refunded') {
      const cents = Math.round(Number(body.price_amount ?? 0) * 100);
      return { type: 'payment.refunded', id, paymentId, chargeRef: null, refundedCents: cents > 0 ? cents : 0 };
    }
    if (status === 'failed' || status === 'expired') return { type: 'payment.failed', id, paymentId };
    return { type: 'ignored', id, reason: `status ${status}` };
  }
}
