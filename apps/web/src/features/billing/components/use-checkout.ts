import '../../../lib/error-texts';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import type { PlanId } from '@reverie/shared';
import { showAlert } from '../../../components/ui/alerts';
import { createCheckout, type PaymentMethod } from '../api/create-checkout';
import { currentReturnPath } from '../return-path';

/** Starts a checkout and sends the browser to the provider's page; it comes back to this page. */
export function useCheckout() {
  const { t } = useTranslation();
  const [pending, setPending] = useState<PlanId | null>(null);
  const start = async (plan: PlanId, method: PaymentMethod) => {
    setPending(plan);
    try {
      const { url } = await createCheckout(plan, method, currentReturnPath());
      window.location.assign(url);
    } catch (error) {
      setPending(null);
      // The server's text is localised (payments_not_configured, already_subscribed, …).
      const detail = (error as { data?: { detail?: string } | null }).data?.detail;
      showAlert(detail ?? t('errors.payment_error'), { type: 'error' });
    }
  };
  return { pending, start };
}
