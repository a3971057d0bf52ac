import type { CancelSubscriptionResponse } from '@reverie/shared';
import { request } from '../../../lib/api-client';

/** Stops the renewal; premium lasts until the period's end. */
export function cancelSubscription(): Promise<CancelSubscriptionResponse> {
  return request<CancelSubscriptionResponse>('/api/subscription/cancel_stripe/', { method: 'POST' });
}
