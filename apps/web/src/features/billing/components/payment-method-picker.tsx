import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { Bitcoin, CreditCard, Info } from 'lucide-react';
import type { Plans } from '@reverie/shared';
import { ChoiceButtons } from '../../../components/ui/segmented-control';
import { Icon } from '../../../components/ui/icon';
import type { PaymentMethod } from '../api/create-checkout';
import '../texts';

/**
 * The payment method and what this site can take: buying off entirely, or one method off
 * (crypto is off beside a real card provider without NOWPayments).
 */
export function usePaymentMethod(plans: Plans | undefined) {
  const [chosen, setChosen] = useState<PaymentMethod>('card');
  const card = plans?.card_enabled ?? true;
  const crypto = plans?.crypto_enabled ?? true;
  const enabled = plans?.payments_enabled ?? true;
  // The chosen method when it works here, else the one that does.
  const method: PaymentMethod = chosen === 'card' ? (card || !crypto ? 'card' : 'crypto') : crypto ? 'crypto' : 'card';
  return { method, setMethod: setChosen, available: { card, crypto }, enabled };
}

/** Explains why buy buttons do nothing on this site (no payment provider configured). */
export function PaymentsOffNote() {
  const { t } = useTranslation();
  return (
    <p
      role="note"
      data-testid="payments-off"
      className="flex items-start gap-2 rounded-xl border border-amber-400/30 bg-amber-500/10 px-3 py-2.5 text-sm text-amber-100"
    >
      <Icon icon={Info} size="sm" className="mt-0.5 shrink-0" />
      {t('billing.payments_off')}
    </p>
  );
}

/** Card or crypto, as a two-option radio group; a method this site lacks is disabled and explained. */
export function PaymentMethodPicker({
  value,
  onChange,
  available = { card: true, crypto: true },
}: {
  value: PaymentMethod;
  onChange: (m: PaymentMethod) => void;
  available?: { card: boolean; crypto: boolean };
}) {
  const { t } = useTranslation();
  const options = [
    { value: 'card' as const, icon: CreditCard, label: t('billing.pay_card') },
    { value: 'crypto' as const, icon: Bitcoin, label: t('billing.pay_crypto') },
  ];
  // With neither method, the payments-off note says it all.
  const missing = available.card && !available.crypto ? 'crypto' : !available.card && available.crypto ? 'card' : null;
  return (
    <div className="space-y-2">
      <ChoiceButtons
        options={options.map((option) => ({
          value: option.value,
          label: (
            <>
              <Icon icon={option.icon} size="md" />
              {option.label}
            </>
          ),
          disabled: !available[option.value],
          describedBy: missing === option.value ? 'payment-method-missing' : undefined,
        }))}
        value={value}
        onChange={onChange}
        label={t('billing.payment_method')}
        testId={(method) => `pay-${method}`}
        className="grid grid-cols-2 gap-2"
        buttonClass={() =>
          'flex items-center justify-center gap-2 rounded-xl border border-white/10 px-3 py-2.5 text-sm font-medium text-muted transition hover:text-fg disabled:cursor-not-allowed disabled:opacity-50 disabled:hover:text-muted aria-checked:border-primary aria-checked:bg-primary/10 aria-checked:text-fg'
        }
      />
      {missing && (
        <p id="payment-method-missing" className="text-center text-xs text-muted" data-testid={`${missing}-off`}>
          {t(missing === 'crypto' ? 'billing.crypto_off' : 'billing.card_off')}
        </p>
      )}
    </div>
  );
}
