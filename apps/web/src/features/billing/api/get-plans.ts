import { useQuery } from '@tanstack/react-query';
import {
  BILLING_CURRENCY,
  DAILY_CLAIM_AMOUNT,
  PACK_CATALOGUE,
  PACK_IDS,
  PREMIUM_GRANT_AMOUNT,
  SUBSCRIPTION_CATALOGUE,
  SUBSCRIPTION_PLANS,
  type Plans,
} from '@reverie/shared';
import { request, type ApiRequestError } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';

export const getPlans = () => request<Plans>('/api/billing/plans');

/** The shared price list, shown at once while the server's copy loads. */
const placeholder: Plans = {
  currency: BILLING_CURRENCY,
  subscriptions: SUBSCRIPTION_PLANS.map((id) => ({
    id,
    ...SUBSCRIPTION_CATALOGUE[id],
    grant_desires: PREMIUM_GRANT_AMOUNT,
    daily_desires: PREMIUM_GRANT_AMOUNT,
  })),
  packs: PACK_IDS.map((id) => ({ id, ...PACK_CATALOGUE[id], is_offer: PACK_CATALOGUE[id].discount_percent !== null })),
  daily_claim: { amount: DAILY_CLAIM_AMOUNT, interval_hours: 24 },
  // A new account gets the trial; the server says whether this one still does.
  trial_available: true,
  // Until the server says otherwise; a checkout on a site without payments answers 503 anyway.
  payments_enabled: true,
  card_enabled: true,
  crypto_enabled: true,
};

export function usePlans() {
  // Signed in, the answer is this user's (whether the free trial is still theirs).
  const { isAuthorized } = useSession();
  return useQuery<Plans, ApiRequestError>({
    queryKey: ['billing', 'plans', isAuthorized ? 'user' : 'guest'],
    queryFn: getPlans,
    placeholderData: placeholder,
    staleTime: 60 * 1000,
  });
}
