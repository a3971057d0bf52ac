import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { AppError } from '../../lib/errors.js';
import type { CheckoutInput, PaymentEvent, PaymentProvider } from './types.js';

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';
const TOLERANCE_S = 300;

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`, the same scheme as Stripe's. */
export function signSandboxPayload(secret: string, body: string, now = Date.now()): string {
  const t = Math.floor(now / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}

/** A sandbox webhook body for one of our payments. */
export function sandboxEventBody(type: 'payment.succeeded' | 'payment.failed', paymentId: string): string {
  return JSON.stringify({
    id: `evt_sbx_${randomUUID()}`,
    type,
    created: Math.floor(Date.now() / 1000),
    data: { payment_id: paymentId },
  });
}

/**
 * The embedded default: a local checkout page (billing.sandbox-routes.ts) approves or
 * declines, then delivers a signed webhook through the very same crediting path as the
 * real providers. Never moves real money.
 */
export class SandboxPaymentProvider implements PaymentProvider {
  readonly id = 'sandbox' as const;
  readonly renews = true;

  constructor(private readonly options: { secret: string; publicUrl: string }) {}

  async createCheckout(input: CheckoutInput) {
    const base = this.options.publicUrl.replace(/\/$/, '');
    // The checkout page is a page of the web app: it approves through an authenticated API call,
    // so only the signed-in payer can approve (billing.sandbox-routes.ts).
    const query = input.returnPath ? `?return=${encodeURIComponent(input.returnPath)}` : '';
    return {
      url: `${base}/checkout/sandbox/${input.paymentId}${query}`,
      providerRef: `sbx_${input.paymentId}`,
    };
  }

  /** Signs a webhook body with the sandbox secret (what the checkout page delivers). */
  signWebhook(body: string): string {
    return signSandboxPayload(this.options.secret, body);
  }

  async cancelSubscription(): Promise<void> {
    // The sandbox has no remote subscription: cancelling is recorded locally only.
  }

  async stopSubscription(): Promise<void> {
    // A refused sandbox subscription is never created: nothing runs that could be stopped.
  }

  async resumeSubscription(): Promise<void> {
    // Recorded locally only, like the cancel.
  }

  parseWebhook(rawBody: Buffer, headers: IncomingHttpHeaders): PaymentEvent {
    const header = headers[SANDBOX_SIGNATURE_HEADER];
    const value = Array.isArray(header) ? header[0] : header;
    const parts = Object.fromEntries((value ?? '').split(',').map((p) => p.split('=', 2) as [string, string]));
    const t = Number(parts.t);
    if (!value || !Number.isFinite(t) || !parts.v1) throw invalidSignature();
    if (Math.abs(Date.now() / 1000 - t) > TOLERANCE_S) throw invalidSignature();
    const expected = createHmac('sha256', this.options.secret).update(`${t}.`).update(rawBody).digest();
    const given = Buffer.from(parts.v1, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidSignature();

    let event: { id?: unknown; type?: unknown; data?: { payment_id?: unknown } };
    try {
      event = JSON.parse(rawBody.toString('utf8'));
    } catch {
      throw new AppError('bad_request', { status: 400, detail: 'Malformed webhook body' });
    }
    const id = String(event.id ?? '');
    const paymentId = String(event.data?.payment_id ?? '');
    if (!id || !paymentId) return { type: 'ignored', id: id || 'unknown', reason: 'incomplete event' };
    if (event.type === 'payment.succeeded') return { type: 'payment.succeeded', id, paymentId, providerRef: null };
    if (event.type === 'payment.failed') return { type: 'payment.failed', id, paymentId };
    return { type: 'ignored', id, reason: `unhandled type ${String(event.type)}` };
  }
}

export const invalidSignature = () => new AppError('invalid_signature', { status: 400 });
