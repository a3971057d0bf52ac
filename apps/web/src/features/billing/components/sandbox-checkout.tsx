import '../../../lib/error-texts';
import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { FlaskConical } from 'lucide-react';
import {
  isSubscriptionPlan,
  PACK_CATALOGUE,
  SUBSCRIPTION_CATALOGUE,
  type PackId,
  type SandboxPayment,
} from '@reverie/shared';
import { showAlert } from '../../../components/ui/alerts';
import { BusyButton } from '../../../components/ui/submit-button';
import { Icon } from '../../../components/ui/icon';
import { Skeleton } from '../../../components/ui/page';
import type { ApiRequestError } from '../../../lib/api-client';
import { currentEdition } from '../../../lib/edition';
import { currentLocale, useTranslation } from '../../../lib/i18n';
import { decideSandboxPayment, getSandboxPayment } from '../api/sandbox-checkout';
import { formatDate, formatPrice } from '../format';
import { purchaseReturnUrl, safeReturnPath } from '../return-path';
import '../texts';

/** The payer's two answers, approve first, and their buttons' looks. */
const DECISIONS = [
  {
    decision: 'approve',
    className:
      'flex items-center justify-center gap-2 rounded-xl bg-primary px-4 py-3 font-semibold text-on-primary hover:brightness-110 disabled:opacity-60',
  },
  {
    decision: 'decline',
    className:
      'flex items-center justify-center gap-2 rounded-xl border border-white/15 px-4 py-3 font-semibold hover:bg-white/5 disabled:opacity-60',
  },
] as const;

/**
 * The sandbox provider's checkout page (`/checkout/sandbox/{payment id}?return=/path`): only the
 * signed-in payer sees it (the route needs a log-in, the API answers 404 to anyone else).
 * Approve and Decline are authenticated API calls; the server settles the payment through the
 * same signed webhook as a real provider, then the buyer goes back to where they started.
 */
export function SandboxCheckout() {
  const { t } = useTranslation();
  const locale = currentLocale();
  const navigate = useNavigate();
  const { id = '' } = useParams();
  const [search] = useSearchParams();
  const returnPath = safeReturnPath(search.get('return'));
  const [busy, setBusy] = useState<'approve' | 'decline' | null>(null);
  const payment = useQuery<SandboxPayment, ApiRequestError>({
    queryKey: ['billing', 'sandbox', id],
    queryFn: () => getSandboxPayment(id),
    retry: (count, error) => error.status >= 500 && count < 2,
  });

  const decide = async (verb: 'approve' | 'decline') => {
    if (!payment.data) return;
    setBusy(verb);
    try {
      const { status, refunded } = await decideSandboxPayment(id, verb);
      if (refunded) {
        // A second subscription of the account: refused at the webhook, nothing granted.
        showAlert(t('billing.duplicate_refund'), { type: 'error', autoCloseMs: 15_000 });
        navigate(returnPath, { replace: true });
        return;
      }
      navigate(purchaseReturnUrl(returnPath, status === 'paid' ? 'success' : 'failed', payment.data.plan, id), {
        replace: true,
      });
    } catch (error) {
      setBusy(null);
      showAlert((error as ApiRequestError).data?.detail ?? t('errors.payment_error'), { type: 'error' });
    }
  };

  const back = (
    <Link to={returnPath} className="text-sm font-medium text-primary hover:underline">
      {t('billing.sandbox_back')}
    </Link>
  );

  let body;
  if (payment.isPending) {
    body = <Skeleton className="h-40" />;
  } else if (payment.isError || !payment.data) {
    body = (
      <div className="space-y-4" data-testid="sandbox-missing">
        <p className="text-muted">
          {payment.error?.status === 404 ? t('billing.sandbox_not_found') : t('errors.something_went_wrong')}
        </p>
        {back}
      </div>
    );
  } else {
    const p = payment.data;
    const plan = p.plan;
    const item = isSubscriptionPlan(plan)
      ? t(`billing.plan_${plan}`)
      : t('billing.pack_desires', { count: PACK_CATALOGUE[plan as PackId].desires });
    const price = formatPrice(p.amount_cents, p.currency, locale);
    const trial =
      isSubscriptionPlan(plan) && p.trial_days > 0 && p.first_charge_at
        ? t(
            SUBSCRIPTION_CATALOGUE[plan].interval === 'month'
              ? 'billing.trial_terms_month'
              : 'billing.trial_terms_year',
            {
              zero: formatPrice(0, p.currency, locale),
              price,
              date: formatDate(p.first_charge_at, locale),
            },
          )
        : null;
    body = (
      <div className="space-y-5">
        <div className="flex items-start justify-between gap-4 border-y border-white/10 py-4">
          <span className="font-medium">{item}</span>
          <span className="text-right font-bold whitespace-nowrap">
            {trial ? formatPrice(0, p.currency, locale) : price}
          </span>
        </div>
        {trial && (
          <p className="rounded-xl bg-primary/15 px-3 py-2 text-sm font-medium" data-testid="sandbox-trial-terms">
            {trial}
          </p>
        )}
        {p.status === 'pending' ? (
          <div className="grid gap-3">
            {DECISIONS.map(({ decision, className }) => (
              <BusyButton
                key={decision}
                busy={busy === decision}
                disabled={busy !== null}
                onClick={() => void decide(decision)}
                className={className}
              >
                {t(`billing.sandbox_${decision}`)}
              </BusyButton>
            ))}
          </div>
        ) : (
          <div className="space-y-3">
            <p className="text-sm text-muted">{t('billing.sandbox_done')}</p>
            {back}
          </div>
        )}
      </div>
    );
  }

  return (
    <div className="flex min-h-[70vh] items-center justify-center px-4 py-10">
      <section
        className="w-full max-w-md rounded-3xl border border-white/10 bg-surface p-6 shadow-2xl shadow-black/40 sm:p-8"
        aria-labelledby="sandbox-title"
        data-testid="sandbox-checkout"
      >
        <p className="mb-1 text-lg font-bold text-primary">{currentEdition().name}</p>
        <h1 id="sandbox-title" className="flex items-center gap-2 text-2xl font-semibold">
          <Icon icon={FlaskConical} size="md" className="text-secondary" />
          {t('billing.sandbox_title')}
        </h1>
        <p className="mt-1 mb-5 text-sm text-muted">{t('billing.sandbox_note')}</p>
        {body}
      </section>
    </div>
  );
}
