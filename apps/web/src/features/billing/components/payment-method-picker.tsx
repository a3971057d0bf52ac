import { useTranslation } from 'react-i18next';
import { Bitcoin, CreditCard } from 'lucide-react';
import { Icon } from '../../../components/ui/icon';
import type { PaymentMethod } from '../api/create-checkout';
import '../texts';

/** Card or crypto, as a two-option radio group. */
export function PaymentMethodPicker({
  value,
  onChange,
}: {
  value: PaymentMethod;
  onChange: (m: PaymentMethod) => void;
}) {
  const { t } = useTranslation();
  const options = [
    { id: 'card' as const, icon: CreditCard, label: t('billing.pay_card') },
    { id: 'crypto' as const, icon: Bitcoin, label: t('billing.pay_crypto') },
  ];
  return (
    <div role="radiogroup" aria-label={t('billing.payment_method')} className="grid grid-cols-2 gap-2">
      {options.map((option) => (
        <button
          key={option.id}
          type="button"
          role="radio"
          aria-checked={value === option.id}
          onClick={() => onChange(option.id)}
          data-testid={`pay-${option.id}`}
          className="flex items-center justify-center gap-2 rounded-xl border border-white/10 px-3 py-2.5 text-sm font-medium text-muted transition hover:text-fg aria-checked:border-primary aria-checked:bg-primary/10 aria-checked:text-fg"
        >
          <Icon icon={option.icon} size="md" />
          {option.label}
        </button>
      ))}
    </div>
  );
}
