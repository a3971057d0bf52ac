import '../texts';
import { useEffect, useState, type ReactNode } from 'react';
import { Modal } from '../../../components/ui/modal';
import { useTranslation } from '../../../lib/i18n';
import { ApiRequestError } from '../../../lib/api-client';

/** What `ConfirmAction` reports when it fails: the server's translated detail, or a generic text. */
export function actionErrorText(error: unknown, fallback: string): string {
  return error instanceof ApiRequestError && error.data?.detail ? error.data.detail : fallback;
}

/**
 * A confirmation dialog for an admin write, with a reason field (required unless
 * `reason="optional"`, absent with `reason="none"`). `onConfirm(reason)` runs the write; while it
 * runs the buttons wait, a failure shows the server's message in the dialog and keeps it open,
 * success closes it. Extra fields (an amount, a role) go in `children`; `disabled` holds the
 * confirm button while they are invalid.
 */
export function ConfirmAction({
  open,
  title,
  description,
  confirmLabel,
  danger = false,
  reason = 'required',
  reasonLabel,
  children,
  disabled = false,
  onConfirm,
  onClose,
  testId = 'confirm-action',
}: {
  open: boolean;
  title: string;
  description?: string;
  confirmLabel: string;
  danger?: boolean;
  reason?: 'required' | 'optional' | 'none';
  reasonLabel?: string;
  children?: ReactNode;
  disabled?: boolean;
  onConfirm: (reason: string) => Promise<unknown>;
  onClose: () => void;
  testId?: string;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!open) {
      setText('');
      setError(null);
      setMissing(false);
      setBusy(false);
    }
  }, [open]);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (busy || disabled) return;
    if (reason === 'required' && !text.trim()) {
      setMissing(true);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onConfirm(text.trim());
      onClose();
    } catch (failure) {
      setError(actionErrorText(failure, t('admin.common.action_failed')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal open={open} onClose={() => !busy && onClose()} title={title} description={description} size="md">
      <form onSubmit={submit} className="flex flex-col gap-4" data-testid={testId} noValidate>
        {children}
        {reason !== 'none' && (
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${testId}-reason`} className="text-sm font-medium">
              {reasonLabel ?? (reason === 'required' ? t('admin.common.reason') : t('admin.common.reason_optional'))}
            </label>
            <textarea
              id={`${testId}-reason`}
              name="reason"
              value={text}
              maxLength={500}
              rows={3}
              aria-invalid={missing || undefined}
              aria-describedby={missing ? `${testId}-reason-error` : undefined}
              onChange={(event) => {
                setText(event.target.value);
                if (event.target.value.trim()) setMissing(false);
              }}
              className={`w-full rounded-xl border bg-bg/60 px-4 py-3 text-base outline-none transition placeholder:text-muted focus:border-primary focus:ring-2 focus:ring-primary/30 ${missing ? 'border-red-400/70' : 'border-white/10'}`}
            />
            {missing && (
              <p id={`${testId}-reason-error`} role="alert" className="text-sm text-red-300">
                {t('admin.common.reason_required')}
              </p>
            )}
          </div>
        )}
        {error && (
          <p role="alert" className="rounded-xl bg-red-950/50 p-3 text-sm text-red-100" data-testid={`${testId}-error`}>
            {error}
          </p>
        )}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <button
            type="button"
            onClick={onClose}
            disabled={busy}
            className="rounded-xl border border-white/10 px-4 py-2.5 text-sm hover:bg-white/5"
          >
            {t('admin.common.cancel')}
          </button>
          <button
            type="submit"
            disabled={busy || disabled}
            data-testid={`${testId}-confirm`}
            className={`rounded-xl px-4 py-2.5 text-sm font-semibold transition disabled:opacity-50 ${
              danger ? 'bg-red-500 text-white hover:bg-red-400' : 'bg-primary text-on-primary hover:opacity-90'
            }`}
          >
            {busy ? t('admin.common.working') : confirmLabel}
          </button>
        </div>
      </form>
    </Modal>
  );
}
