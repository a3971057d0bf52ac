import type { CheckoutResponse, PlanId } from '@reverie/shared';
import { request } from '../../../lib/api-client';

export type PaymentMethod = 'card' | 'crypto';

/** Starts a checkout (card: `create_stripe`, crypto: `create_crypto_payment`) and answers its URL. */
export function createCheckout(plan: PlanId, method: PaymentMethod): Promise<CheckoutResponse> {
  const path = method === 'card' ? '/api/subscription/create_stripe/' : '/api/subscription/create_crypto_payment/';
  return request<CheckoutResponse>(path, { method: 'POST', body: { plan } });
}
