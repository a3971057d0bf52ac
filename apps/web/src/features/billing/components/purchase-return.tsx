import '../../../lib/error-texts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from '../../../lib/i18n';
import { PACK_CATALOGUE, PLAN_IDS, type PackId, type PlanId } from '@reverie/shared';
import { showAlert } from '../../../components/ui/alerts';
import { useSession } from '../../../lib/session';
import { refetchProfile } from '../../../lib/profile';
import { getPaymentStatus } from '../api/get-payment-status';
import '../texts';

/** What a plan gives, as the buyer reads it on return ("+350 desires", "Premium is active"). */
export function purchaseGainText(t: (key: string, vars?: Record<string, unknown>) => string, plan: string | null) {
  if (!plan || !(PLAN_IDS as readonly string[]).includes(plan)) return null;
  if (plan in PACK_CATALOGUE) return t('billing.purchase_desires', { count: PACK_CATALOGUE[plan as PackId].desires });
  return (plan as PlanId) === 'monthly' || plan === 'annual' ? t('billing.purchase_premium') : null;
}

/**
 * Back from a checkout on whatever page it started (`?purchase=success|failed&plan=…`): says
 * what the buyer got, or that the payment was cancelled, reloads the profile (the webhook
 * usually credited already), and removes the flags from the address.
 */
export default function PurchaseReturn() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const { isAuthorized } = useSession();
  const queryClient = useQueryClient();
  const outcome = params.get('purchase');
  const plan = params.get('plan');

  const paymentId = params.get('payment');

  useEffect(() => {
    if (outcome !== 'success' && outcome !== 'failed') return;
    if (outcome === 'success') {
      // One toast: what was bought when it is already credited, else the spec's "may take up
      // to 5 minutes" (the webhook has not arrived yet, or we cannot ask).
      const gain = purchaseGainText(t, plan);
      const credited = isAuthorized && paymentId ? getPaymentStatus(paymentId).then((p) => p.credited) : null;
      void Promise.resolve(credited)
        .catch(() => false)
        .then((done) => showAlert(done && gain ? gain : t('errors.purchase_success'), { autoCloseMs: 10_000 }));
    } else {
      showAlert(t('billing.purchase_cancelled'), { type: 'error' });
    }
    if (isAuthorized) void refetchProfile(queryClient);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('purchase');
        next.delete('plan');
        next.delete('payment');
        return next;
      },
      { replace: true },
    );
  }, [outcome, plan, paymentId, isAuthorized, queryClient, setParams, t]);

  return null;
}
