import '../texts';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { ApiRequestError } from '../../../lib/api-client';
import { dangerButton, primaryButton, secondaryButton } from './content-ui';

/** What a failed admin write says: the server's translated detail, or a generic text. */
export function actionErrorText(error: unknown, fallback: string): string {
  return error instanceof ApiRequestError && error.data?.detail ? error.data.detail : fallback;
}

/**
 * The console's one "type a reason, then confirm" form: a reason field (required unless
 * `reason="optional"`, absent with `reason="none"`), a confirm and a cancel button.
 * `onConfirm(reason)` gets the trimmed reason and runs the write; while it runs the buttons
 * wait, a failure shows `errorText(failure)` under the field and keeps the form, success calls
 * `onDone`. Extra fields go in `children`; `disabled` holds the confirm button while they are
 * invalid. `ConfirmAction` shows it in a dialog; unpublish and reject show it in place
 * (`inline`): there its buttons look like the list item's own, the confirm one first.
 * Element ids are `${id}-reason`, `${id}-reason-error`; test ids `${testId}-reason`, `-confirm`, `-error`.
 */
export function ReasonForm({
  confirmLabel,
  danger = false,
  reason = 'required',
  reasonLabel,
  reasonHint,
  requiredText,
  maxLength = 500,
  children,
  disabled = false,
  onConfirm,
  onDone,
  onCancel,
  onBusyChange,
  errorText,
  testId,
  formTestId = testId,
  id = testId,
  className = 'flex flex-col gap-4',
  inline = false,
}: {
  confirmLabel: string;
  danger?: boolean;
  reason?: 'required' | 'optional' | 'none';
  reasonLabel?: string;
  reasonHint?: string;
  /** Shown when a required reason is missing (the console's generic text by default). */
  requiredText?: string;
  maxLength?: number;
  children?: ReactNode;
  disabled?: boolean;
  onConfirm: (reason: string) => Promise<unknown>;
  onDone: () => void;
  onCancel: () => void;
  /** For a dialog that must not close while the write runs. */
  onBusyChange?: (busy: boolean) => void;
  /** The failure's text; the server's detail or a generic text by default. */
  errorText?: (failure: unknown) => string;
  testId: string;
  formTestId?: string;
  id?: string;
  className?: string;
  /** Shown in place under a list item rather than in a dialog. */
  inline?: boolean;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);
  const [busy, setBusyState] = useState(false);
  const setBusy = (value: boolean) => {
    setBusyState(value);
    onBusyChange?.(value);
  };

  const submit = async (event: FormEvent) => {
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
      setBusy(false);
      onDone();
    } catch (failure) {
      setError(errorText ? errorText(failure) : actionErrorText(failure, t('admin.common.action_failed')));
      setBusy(false);
    }
  };

  const dialogConfirmClass = `rounded-xl px-4 py-2.5 text-sm font-semibold transition disabled:opacity-50 ${
    danger ? 'bg-red-500 text-white hover:bg-red-400' : 'bg-primary text-on-primary hover:opacity-90'
  }`;
  const confirm = (
    <button
      type="submit"
      disabled={busy || disabled}
      data-testid={`${testId}-confirm`}
      className={inline ? (danger ? dangerButton : primaryButton) : dialogConfirmClass}
    >
      {busy ? t('admin.common.working') : confirmLabel}
    </button>
  );

  return (
    <form onSubmit={submit} className={className} data-testid={formTestId} noValidate>
      {children}
      {reason !== 'none' && (
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-reason`} className="text-sm font-medium">
            {reasonLabel ?? (reason === 'required' ? t('admin.common.reason') : t('admin.common.reason_optional'))}
          </label>
          <textarea
            id={`${id}-reason`}
            name="reason"
            value={text}
            maxLength={maxLength}
            rows={3}
            aria-invalid={missing || undefined}
            aria-describedby={missing ? `${id}-reason-error` : undefined}
            data-testid={`${testId}-reason`}
            onChange={(event) => {
              setText(event.target.value);
              if (event.target.value.trim()) setMissing(false);
            }}
            className={`w-full rounded-xl border bg-bg/60 px-4 py-3 text-base outline-none transition placeholder:text-muted focus:border-primary focus:ring-2 focus:ring-primary/30 ${missing ? 'border-red-400/70' : 'border-white/10'}`}
          />
          {reasonHint && <p className="text-xs text-muted">{reasonHint}</p>}
          {missing && (
            <p id={`${id}-reason-error`} role="alert" className="text-sm text-red-300">
              {requiredText ?? t('admin.common.reason_required')}
            </p>
          )}
        </div>
      )}
      {error && (
        <p role="alert" className="rounded-xl bg-red-950/50 p-3 text-sm text-red-100" data-testid={`${testId}-error`}>
          {error}
        </p>
      )}
      <div className={inline ? 'flex flex-wrap gap-2' : 'flex flex-col-reverse gap-2 sm:flex-row sm:justify-end'}>
        {inline && confirm}
        <button
          type="button"
          onClick={onCancel}
          disabled={busy}
          className={
            inline ? secondaryButton : 'rounded-xl border border-white/10 px-4 py-2.5 text-sm hover:bg-white/5'
          }
        >
          {t('admin.common.cancel')}
        </button>
        {!inline && confirm}
      </div>
    </form>
  );
}
