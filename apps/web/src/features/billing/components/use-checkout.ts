import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlanId } from '@reverie/shared';
import { showAlert } from '../../../components/ui/alerts';
import { createCheckout, type PaymentMethod } from '../api/create-checkout';

/** Starts a checkout and sends the browser to the provider's page. */
export function useCheckout() {
  const { t } = useTranslation();
  const [pending, setPending] = useState<PlanId | null>(null);
  const start = async (plan: PlanId, method: PaymentMethod) => {
    setPending(plan);
    try {
      const { url } = await createCheckout(plan, method);
      window.location.assign(url);
    } catch (error) {
      setPending(null);
      const detail = (error as { data?: { detail?: string } | null }).data?.detail;
      showAlert(detail ?? t('errors.payment_error'), { type: 'error' });
    }
  };
  return { pending, start };
}
