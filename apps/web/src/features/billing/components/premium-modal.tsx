import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Check, Crown, Gift, Loader2 } from 'lucide-react';
import type { SubscriptionPlanId } from '@reverie/shared';
import type { ModalProps } from '../../../lib/modals';
import { Icon } from '../../../components/ui/icon';
import { Modal } from '../../../components/ui/modal';
import { currentLocale, useTranslation } from '../../../lib/i18n';
import { useProfile } from '../../../lib/profile';
import { useSession } from '../../../lib/session';
import { subscriptionMilestone } from '../../../lib/subscription-dates';
import { usePlans } from '../api/get-plans';
import { useSubscription } from '../api/subscription';
import { formatDate, formatPrice } from '../format';
import { PaymentMethodPicker, PaymentsOffNote, usePaymentMethod } from './payment-method-picker';
import { useCheckout } from './use-checkout';
import '../texts';

const BENEFITS = [
  'billing.benefit_desires',
  'billing.benefit_voice',
  'billing.benefit_free_tools',
  'billing.benefit_models',
];

const DAY_MS = 24 * 60 * 60 * 1000;

const MILESTONE_TEXT = { ends: 'billing.ends_on', trial: 'billing.trial_until', renews: 'billing.renews_on' } as const;

/** Where a subscriber manages the subscription (cancel, resume): Settings. */
export const MANAGE_SUBSCRIPTION_PATH = '/settings#manage-subscription';

/** The premium purchase (`?premium=1&from=get-premium`): plans, the trial, benefits, card or crypto. */
export default function PremiumModal({ onClose, requireAuth }: ModalProps) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const navigate = useNavigate();
  const { isAuthorized } = useSession();
  const { profile, isPremium } = useProfile();
  const { data: plans } = usePlans();
  const [plan, setPlan] = useState<SubscriptionPlanId>('annual');
  const { method, setMethod, available, enabled } = usePaymentMethod(plans);
  const checkout = useCheckout();
  const { data: details } = useSubscription(isPremium);
  const monthly = plans?.subscriptions.find((p) => p.id === 'monthly');
  const annual = plans?.subscriptions.find((p) => p.id === 'annual');
  const currency = plans?.currency ?? 'usd';
  const savePercent =
    monthly && annual ? Math.round((1 - annual.amount_cents / (monthly.amount_cents * 12)) * 100) : null;
  const trialDays = annual?.trial_days ?? 3;

  if (isPremium && profile?.subscription) {
    const sub = profile.subscription;
    // The date that matters, as Settings and the console say it (a cancelled or prepaid
    // subscription has no renewal: its end); never the title said twice.
    const milestone = details ? subscriptionMilestone(details) : null;
    const when = milestone ? t(MILESTONE_TEXT[milestone.kind], { date: formatDate(milestone.date, locale) }) : null;
    return (
      <Modal open onClose={onClose} title={t('billing.is_premium')}>
        <div className="space-y-4" data-testid="premium-status">
          <p className="flex items-center gap-2 text-muted" data-testid="premium-status-when">
            <Icon icon={Crown} size="md" className="text-primary" />
            {when ?? t('billing.is_premium')}
          </p>
          {/* Cancelling (and resuming) lives in one place: Settings → Manage subscription. */}
          <button
            type="button"
            onClick={() => navigate(MANAGE_SUBSCRIPTION_PATH)}
            data-testid="manage-subscription-link"
            className="w-full rounded-xl border border-white/10 px-4 py-3 text-sm font-medium text-muted hover:text-fg"
          >
            {sub.status === 'cancelled' ? t('billing.manage_title') : t('billing.cancel')}
          </button>
        </div>
      </Modal>
    );
  }

  const selected = plan === 'monthly' ? monthly : annual;
  // The free trial is the card's, once per person (the server says whether this account still
  // has it); crypto is prepaid: the price now and the period it buys.
  const offer: 'trial' | 'card' | 'crypto' =
    method === 'crypto' ? 'crypto' : (plans?.trial_available ?? true) && trialDays > 0 ? 'trial' : 'card';
  const firstChargeAt = new Date(Date.now() + (selected?.trial_days ?? trialDays) * DAY_MS).toISOString();
  const price = selected ? formatPrice(selected.amount_cents, currency, locale) : '';
  const per = selected?.interval === 'year' ? 'year' : 'month';
  const terms = !selected
    ? null
    : offer === 'trial'
      ? t(`billing.trial_terms_${per}`, {
          zero: formatPrice(0, currency, locale),
          price,
          date: formatDate(firstChargeAt, locale),
        })
      : t(offer === 'card' ? `billing.paid_terms_${per}` : `billing.prepaid_terms_${per}`, { price });
  const note = t(
    offer === 'trial' ? 'billing.trial_note' : offer === 'card' ? 'billing.no_trial_note' : 'billing.crypto_note',
  );

  const planCard = (id: SubscriptionPlanId) => {
    const p = id === 'monthly' ? monthly : annual;
    if (!p) return null;
    const selected = plan === id;
    return (
      <button
        key={id}
        type="button"
        role="radio"
        aria-checked={selected}
        onClick={() => setPlan(id)}
        data-testid={`plan-${id}`}
        className="relative flex flex-col items-start rounded-2xl border border-white/10 bg-bg/60 p-4 text-left transition aria-checked:border-primary aria-checked:bg-primary/10"
      >
        {id === 'annual' && savePercent ? (
          <span className="absolute -top-2.5 right-3 rounded-full bg-secondary px-2 py-0.5 text-xs font-bold text-on-primary">
            {t('billing.save_percent', { percent: savePercent })}
          </span>
        ) : null}
        <span className="text-sm font-medium text-muted">{t(`billing.${id}`)}</span>
        <span className="mt-1 flex flex-wrap items-baseline gap-x-1">
          <span className="text-2xl font-bold whitespace-nowrap">{formatPrice(p.amount_cents, currency, locale)}</span>
          <span className="text-sm whitespace-nowrap text-muted">
            {t(id === 'monthly' ? 'billing.per_month' : 'billing.per_year')}
          </span>
        </span>
        {id === 'annual' && (
          <span className="mt-1 text-xs text-muted">
            {t('billing.annual_per_month', { price: formatPrice(Math.round(p.amount_cents / 12), currency, locale) })}
          </span>
        )}
      </button>
    );
  };

  return (
    <Modal open onClose={onClose} title={t('billing.premium_title')} description={t('billing.premium_subtitle')}>
      <div className="space-y-5" data-testid="premium-modal">
        {offer === 'trial' && (
          <div className="flex items-center gap-2 rounded-xl bg-primary/15 px-3 py-2 text-sm font-semibold text-fg">
            <Icon icon={Gift} size="md" className="text-primary" />
            {t('billing.trial', { count: trialDays })}
          </div>
        )}
        <div role="radiogroup" aria-label={t('billing.premium_title')} className="grid grid-cols-2 gap-3">
          {planCard('monthly')}
          {planCard('annual')}
        </div>
        <div>
          <h3 className="mb-2 text-sm font-semibold">{t('billing.benefits_title')}</h3>
          <ul className="space-y-1.5">
            {BENEFITS.map((key) => (
              <li key={key} className="flex items-start gap-2 text-sm text-muted">
                <Icon icon={Check} size="sm" className="mt-0.5 shrink-0 text-primary" />
                {t(key)}
              </li>
            ))}
          </ul>
        </div>
        {enabled ? (
          <PaymentMethodPicker value={method} onChange={setMethod} available={available} />
        ) : (
          <PaymentsOffNote />
        )}
        <button
          type="button"
          disabled={checkout.pending !== null || !enabled}
          onClick={() => (isAuthorized ? void checkout.start(plan, method) : requireAuth())}
          data-testid="start-trial"
          className="flex w-full items-center justify-center gap-2 rounded-xl bg-gradient-to-r from-primary to-secondary px-4 py-3.5 font-semibold text-on-primary shadow-lg shadow-primary/25 hover:brightness-110 disabled:opacity-60"
        >
          {checkout.pending ? (
            <Icon icon={Loader2} size="md" className="animate-spin" />
          ) : (
            <Icon icon={Crown} size="md" />
          )}
          {checkout.pending
            ? t('billing.redirecting')
            : offer === 'trial'
              ? t('billing.start_trial')
              : t('billing.pay_now', { price })}
        </button>
        {terms && (
          <p className="text-center text-sm font-medium" data-testid="trial-terms" data-offer={offer}>
            {terms}
          </p>
        )}
        <p className="text-center text-xs text-muted" data-testid="premium-note">
          {note}
        </p>
      </div>
    </Modal>
  );
}
