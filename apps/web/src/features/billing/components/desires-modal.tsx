import { Flame } from 'lucide-react';
import { formatBalance, type PackId } from '@reverie/shared';
import type { ModalProps } from '../../../lib/modals';
import { BusyButton } from '../../../components/ui/submit-button';
import { Icon } from '../../../components/ui/icon';
import { Modal } from '../../../components/ui/modal';
import { currentLocale, useTranslation } from '../../../lib/i18n';
import { useProfile } from '../../../lib/profile';
import { useSession } from '../../../lib/session';
import { usePlans } from '../api/get-plans';
import { formatPrice } from '../format';
import { PaymentMethodPicker, PaymentsOffNote, usePaymentMethod } from './payment-method-picker';
import { dropWaitingAction } from '../../../lib/waiting-action';
import { ClaimOffer } from './claim-offer';
import { useCheckout } from './use-checkout';
import '../texts';

/**
 * Buy desires (`?pw=1&from=counter`): the free daily claim first while it is available (one
 * tap; an action waiting for desires then goes on by itself), then the 60% offer, then the
 * other packs.
 */
export default function DesiresModal({ onClose, requireAuth, from }: ModalProps) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const { isAuthorized } = useSession();
  const { profile } = useProfile();
  const { data: plans } = usePlans();
  const { method, setMethod, available, enabled } = usePaymentMethod(plans);
  const checkout = useCheckout();
  const cannotBuy = checkout.pending !== null || !enabled;
  const currency = plans?.currency ?? 'usd';
  const offer = plans?.packs.find((p) => p.is_offer);
  const others = plans?.packs.filter((p) => !p.is_offer) ?? [];
  const busy = (id: PackId) => checkout.pending === id;
  const buy = (id: PackId) => (isAuthorized ? void checkout.start(id, method) : requireAuth());
  // Closed without claiming: the action that waited for desires is not run by a later claim.
  const close = () => {
    dropWaitingAction();
    onClose();
  };

  return (
    <Modal open onClose={close} title={t('billing.desires_title')} description={t('billing.desires_subtitle')}>
      <div className="space-y-5" data-testid="desires-modal">
        <div className="flex items-center justify-between rounded-xl bg-bg/60 px-4 py-2.5 text-sm">
          <span className="text-muted">{t('billing.balance')}</span>
          <span className="flex items-center gap-1.5 font-semibold tabular-nums">
            <Icon icon={Flame} size="sm" className="text-secondary" />
            {formatBalance(profile?.num_tokens ?? 0, locale)}
          </span>
        </div>
        {isAuthorized && profile && <ClaimOffer from={from} onDone={onClose} />}
        {!enabled && <PaymentsOffNote />}
        {offer && (
          <div className="relative overflow-hidden rounded-2xl border border-primary/60 bg-gradient-to-br from-primary/25 to-secondary/20 p-5">
            <span className="absolute top-3 right-3 rounded-full bg-secondary px-2.5 py-1 text-xs font-bold text-on-primary">
              {t('billing.offer_badge', { percent: offer.discount_percent })}
            </span>
            <p className="text-xs font-semibold tracking-wide text-primary uppercase">{t('billing.offer_title')}</p>
            <p className="mt-1 flex items-center gap-2 text-2xl font-bold">
              <Icon icon={Flame} size="lg" className="text-secondary" />
              {t('billing.pack_desires', { count: offer.desires })}
            </p>
            <p className="mt-2 flex items-baseline gap-2">
              <span className="text-3xl font-bold">{formatPrice(offer.amount_cents, currency, locale)}</span>
              {offer.old_amount_cents !== null && (
                <span className="text-sm text-muted line-through" data-testid="old-price">
                  {t('billing.old_price', { price: formatPrice(offer.old_amount_cents, currency, locale) })}
                </span>
              )}
            </p>
            <BusyButton
              busy={busy(offer.id)}
              disabled={cannotBuy}
              onClick={() => buy(offer.id)}
              testId={`buy-${offer.id}`}
              className="mt-4 flex w-full items-center justify-center gap-2 rounded-xl bg-primary px-4 py-3 font-semibold text-on-primary shadow-lg shadow-primary/25 hover:brightness-110 disabled:opacity-60"
            >
              {busy(offer.id)
                ? t('billing.redirecting')
                : t('billing.buy_for', { price: formatPrice(offer.amount_cents, currency, locale) })}
            </BusyButton>
          </div>
        )}
        <div>
          <h3 className="mb-2 text-sm font-semibold">{t('billing.other_packs')}</h3>
          <ul className="space-y-2">
            {others.map((pack) => (
              <li
                key={pack.id}
                className="flex items-center justify-between gap-3 rounded-xl border border-white/10 bg-bg/60 p-3"
              >
                <span className="flex items-center gap-2 font-semibold">
                  <Icon icon={Flame} size="md" className="text-secondary" />
                  {t('billing.pack_desires', { count: pack.desires })}
                </span>
                <BusyButton
                  busy={busy(pack.id)}
                  disabled={cannotBuy}
                  onClick={() => buy(pack.id)}
                  testId={`buy-${pack.id}`}
                  spinnerSize="sm"
                  className="flex items-center gap-2 rounded-full bg-surface px-4 py-2 text-sm font-semibold ring-1 ring-white/15 hover:ring-primary disabled:opacity-60"
                >
                  {formatPrice(pack.amount_cents, currency, locale)}
                </BusyButton>
              </li>
            ))}
          </ul>
        </div>
        {enabled && <PaymentMethodPicker value={method} onChange={setMethod} available={available} />}
        <p className="text-center text-xs text-muted">{t('billing.secure_note')}</p>
      </div>
    </Modal>
  );
}
