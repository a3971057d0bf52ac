import { useQuery } from '@tanstack/react-query';
import type { CancelSubscriptionResponse, Subscription } from '@reverie/shared';
import { request, type ApiRequestError } from '../../../lib/api-client';

export const SUBSCRIPTION_QUERY_KEY = ['billing', 'subscription'] as const;

/** GET /api/subscription: the current subscription or null. */
export const getSubscription = () => request<Subscription | null>('/api/subscription');

export function useSubscription(enabled: boolean) {
  return useQuery<Subscription | null, ApiRequestError>({
    queryKey: SUBSCRIPTION_QUERY_KEY,
    queryFn: getSubscription,
    enabled,
  });
}

/** Stops the renewal; premium lasts until `ends_at`. */
export const cancelSubscription = () =>
  request<CancelSubscriptionResponse>('/api/subscription/cancel_stripe/', { method: 'POST' });

/** Undoes a cancel before the period ends. */
export const resumeSubscription = () => request<Subscription>('/api/subscription/resume', { method: 'POST' });
