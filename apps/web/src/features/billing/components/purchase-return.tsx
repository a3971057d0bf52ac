import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { showAlert } from '../../../components/ui/alerts';
import { useSession } from '../../auth/session';
import { refreshProfile } from '../api/refresh-profile';

/**
 * Back from a checkout (`?purchase=success|failed`): says how it went, reloads the profile
 * (the webhook usually credited already), and removes the flag from the address.
 */
export function PurchaseReturn() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const { isAuthorized } = useSession();
  const outcome = params.get('purchase');

  useEffect(() => {
    if (outcome !== 'success' && outcome !== 'failed') return;
    if (outcome === 'success') showAlert(t('errors.purchase_success'), { autoCloseMs: 10_000 });
    else showAlert(t('errors.payment_error'), { type: 'error' });
    if (isAuthorized) void refreshProfile();
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('purchase');
        return next;
      },
      { replace: true },
    );
  }, [outcome, isAuthorized, setParams, t]);

  return null;
}
