import type { CheckoutResponse, PlanId } from '@reverie/shared';
import { request } from '../../../lib/api-client';

export type PaymentMethod = 'card' | 'crypto';

/**
 * Starts a checkout (card: `create_stripe`, crypto: `create_crypto_payment`) and answers its
 * URL; `returnPath` is where the provider brings the buyer back.
 */
export function createCheckout(plan: PlanId, method: PaymentMethod, returnPath?: string): Promise<CheckoutResponse> {
  const path = method === 'card' ? '/api/subscription/create_stripe/' : '/api/subscription/create_crypto_payment/';
  return request<CheckoutResponse>(path, {
    method: 'POST',
    body: returnPath ? { plan, return_path: returnPath } : { plan },
  });
}
