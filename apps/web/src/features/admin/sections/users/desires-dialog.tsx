import '../../texts';
import { useEffect, useState } from 'react';
import { ADMIN_DESIRES_MAX } from '@reverie/shared';
import { useTranslation } from '../../../../lib/i18n';
import { useAdjustDesires } from '../../api/adjust-desires';
import { ConfirmAction } from '../../components/confirm-action';

/**
 * Grant or remove desires: an amount and a required reason, confirmed in a dialog. Removing
 * more than the balance is refused by the server (`balance_would_go_negative`), shown here.
 */
export function DesiresDialog({
  userId,
  mode,
  balance,
  open,
  onClose,
}: {
  userId: string;
  mode: 'grant' | 'remove';
  balance: number;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const adjust = useAdjustDesires(userId);
  const [amount, setAmount] = useState('');
  useEffect(() => {
    if (!open) setAmount('');
  }, [open]);
  const value = Number(amount);
  const valid = Number.isInteger(value) && value > 0 && value <= ADMIN_DESIRES_MAX;
  return (
    <ConfirmAction
      open={open}
      onClose={onClose}
      testId="desires-form"
      title={t(mode === 'grant' ? 'admin.users.grant_title' : 'admin.users.remove_title')}
      description={t('admin.users.balance_now', { balance })}
      confirmLabel={t(mode === 'grant' ? 'admin.users.grant' : 'admin.users.remove')}
      danger={mode === 'remove'}
      disabled={!valid}
      onConfirm={(reason) => adjust.mutateAsync({ amount: mode === 'grant' ? value : -value, reason })}
    >
      <div className="flex flex-col gap-1.5">
        <label htmlFor="desires-amount" className="text-sm font-medium">
          {t('admin.users.amount')}
        </label>
        <input
          id="desires-amount"
          name="amount"
          type="number"
          inputMode="numeric"
          min={1}
          max={ADMIN_DESIRES_MAX}
          step={1}
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          className="w-full rounded-xl border border-white/10 bg-bg/60 px-4 py-3 text-base outline-none focus:border-primary focus:ring-2 focus:ring-primary/30"
        />
      </div>
    </ConfirmAction>
  );
}
