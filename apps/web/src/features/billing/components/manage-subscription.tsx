import '../../../lib/error-texts';
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { Subscription } from '@reverie/shared';
import { showAlert } from '../../../components/ui/alerts';
import { Modal } from '../../../components/ui/modal';
import { Skeleton } from '../../../components/ui/page';
import type { ApiRequestError } from '../../../lib/api-client';
import { currentLocale, useTranslation } from '../../../lib/i18n';
import { refetchProfile } from '../../../lib/profile';
import { cancelSubscription, resumeSubscription, SUBSCRIPTION_QUERY_KEY, useSubscription } from '../api/subscription';
import { formatDate } from '../format';
import '../texts';
import { subscriptionMilestone } from '../../../lib/subscription-dates';

const MILESTONE_TEXT = { ends: 'billing.ends_on', trial: 'billing.trial_until', renews: 'billing.renews_on' } as const;

export const MANAGE_SUBSCRIPTION_ID = 'manage-subscription';

const buttonSecondary =
  'rounded-full border border-white/15 px-5 py-2.5 text-sm font-semibold hover:bg-white/5 disabled:opacity-60';

/**
 * Settings → Manage subscription: plan, status, trial end or renewal (or end) date; Cancel
 * with a confirmation (premium lasts to the end), Resume before the end. Any provider.
 */
export function ManageSubscription() {
  const { t } = useTranslation();
  const locale = currentLocale();
  const location = useLocation();
  const queryClient = useQueryClient();
  const { data: sub, isPending, isError } = useSubscription(true);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const ref = useRef<HTMLDivElement>(null);

  // The premium dialog leads here with #manage-subscription.
  useEffect(() => {
    if (location.hash === `#${MANAGE_SUBSCRIPTION_ID}` && !isPending)
      ref.current?.closest('section')?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }, [location.hash, isPending]);

  const date = (iso: string) => formatDate(iso, locale);
  const fail = (error: unknown) =>
    showAlert((error as ApiRequestError).data?.detail ?? t('errors.something_went_wrong'), { type: 'error' });

  const cancel = async () => {
    setBusy(true);
    try {
      const result = await cancelSubscription();
      setConfirming(false);
      await queryClient.invalidateQueries({ queryKey: SUBSCRIPTION_QUERY_KEY });
      void refetchProfile(queryClient);
      showAlert(t('billing.cancelled', { date: result.ends_at ? date(result.ends_at) : '' }));
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };

  const resume = async () => {
    setBusy(true);
    try {
      const result = await resumeSubscription();
      queryClient.setQueryData<Subscription | null>(SUBSCRIPTION_QUERY_KEY, result);
      void refetchProfile(queryClient);
      if (result.renews_at) showAlert(t('billing.resumed', { date: date(result.renews_at) }));
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };

  if (isPending) return <Skeleton className="h-24" />;
  if (isError) return <p className="text-sm text-muted">{t('errors.something_went_wrong')}</p>;
  if (!sub) {
    return (
      <p ref={ref} className="text-sm text-muted" data-testid="no-subscription">
        {t('billing.no_subscription')}
      </p>
    );
  }

  const milestone = subscriptionMilestone(sub);
  const when = milestone ? t(MILESTONE_TEXT[milestone.kind], { date: date(milestone.date) }) : null;
  const canCancel = sub.ends_at === null && sub.renews_at !== null;
  // Cancelled during the trial, premium ends with the trial: nothing was paid yet.
  const endsIfCancelled = sub.status === 'trialing' && sub.trial_ends_at ? sub.trial_ends_at : sub.renews_at;

  return (
    <div ref={ref} className="space-y-4" data-testid="subscription-details">
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
        <dt className="text-muted">{t('billing.plan_label')}</dt>
        <dd className="font-medium" data-testid="subscription-plan">
          {t(`billing.plan_${sub.plan}`)}
        </dd>
        <dt className="text-muted">{t('billing.status_label')}</dt>
        <dd className="font-medium" data-testid="subscription-status">
          {t(`billing.status_${sub.status}`)}
        </dd>
      </dl>
      {when && (
        <p className="text-sm" data-testid="subscription-when">
          {when}
        </p>
      )}
      {sub.status === 'trialing' && sub.trial_ends_at && sub.ends_at === null && (
        <p className="text-sm text-muted" data-testid="subscription-first-payment">
          {t('billing.first_payment_on', { date: date(sub.trial_ends_at) })}
        </p>
      )}
      <div className="flex flex-wrap gap-3">
        {canCancel && (
          <button
            type="button"
            onClick={() => setConfirming(true)}
            className={buttonSecondary}
            data-testid="cancel-subscription"
          >
            {t('billing.cancel')}
          </button>
        )}
        {sub.can_resume && (
          <button
            type="button"
            onClick={() => void resume()}
            disabled={busy}
            className="rounded-full bg-primary px-5 py-2.5 text-sm font-semibold text-on-primary hover:brightness-110 disabled:opacity-60"
            data-testid="resume-subscription"
          >
            {t('billing.resume')}
          </button>
        )}
      </div>
      <Modal open={confirming} onClose={() => setConfirming(false)} title={t('billing.cancel_title')} size="sm">
        <p className="mb-6 text-sm text-muted">
          {t('billing.cancel_confirm', { date: endsIfCancelled ? date(endsIfCancelled) : '' })}
        </p>
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" onClick={() => setConfirming(false)} className={buttonSecondary}>
            {t('billing.keep')}
          </button>
          <button
            type="button"
            onClick={() => void cancel()}
            disabled={busy}
            data-testid="confirm-cancel-subscription"
            className="rounded-full bg-red-600 px-5 py-2.5 text-sm font-semibold text-white hover:bg-red-500 disabled:opacity-60"
          >
            {t('billing.confirm_cancel')}
          </button>
        </div>
      </Modal>
    </div>
  );
}
