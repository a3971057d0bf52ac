import { forwardRef, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { useTranslation } from '../../../lib/i18n';
import { Eye, EyeOff } from 'lucide-react';
import { Icon } from '../../../components/ui/icon';
import { ApiRequestError } from '../../../lib/api-client';
import '../texts';

/** A zod message is a `validation.*` key; a server message is already translated text. */
export function useErrorText() {
  const { t, i18n } = useTranslation();
  return (message: string | undefined) => {
    if (!message) return undefined;
    return i18n.exists(`validation.${message}`) ? t(`validation.${message}`) : message;
  };
}

type FieldProps = InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string; hint?: ReactNode };

/** A labelled input with its error under it (announced to screen readers). */
export const TextField = forwardRef<HTMLInputElement, FieldProps>(function TextField(
  { label, error, hint, id, type = 'text', ...rest },
  ref,
) {
  const { t } = useTranslation();
  const errorText = useErrorText()(error);
  const [shown, setShown] = useState(false);
  const inputId = id ?? `field-${rest.name}`;
  const isPassword = type === 'password';
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={inputId} className="text-sm font-medium">
        {label}
      </label>
      <div className="relative">
        <input
          ref={ref}
          id={inputId}
          type={isPassword && shown ? 'text' : type}
          aria-invalid={errorText ? true : undefined}
          aria-describedby={errorText ? `${inputId}-error` : undefined}
          className={`w-full rounded-xl border bg-bg/60 px-4 py-3 text-base outline-none transition placeholder:text-muted focus:border-primary focus:ring-2 focus:ring-primary/30 ${errorText ? 'border-red-400/70' : 'border-white/10'} ${isPassword ? 'pr-12' : ''}`}
          {...rest}
        />
        {isPassword && (
          <button
            type="button"
            onClick={() => setShown((v) => !v)}
            className="absolute top-1/2 right-2 -translate-y-1/2 rounded-full p-2 text-muted hover:text-fg"
            aria-label={shown ? t('auth.hide_password') : t('auth.show_password')}
          >
            <Icon icon={shown ? EyeOff : Eye} size="md" />
          </button>
        )}
      </div>
      {hint}
      {errorText && (
        <p id={`${inputId}-error`} role="alert" className="text-sm text-red-300" data-field-error={rest.name}>
          {errorText}
        </p>
      )}
    </div>
  );
});

/** The e-mail field of the auth forms (log-in, sign-up, a reset link). */
export const EmailInput = forwardRef<HTMLInputElement, Omit<FieldProps, 'label' | 'type'>>(
  function EmailInput(props, ref) {
    const { t } = useTranslation();
    return <TextField ref={ref} label={t('auth.email')} type="email" autoComplete="email" {...props} />;
  },
);

/**
 * A password field with its show/hide button; a new password by default (sign-up, a reset),
 * `autoComplete="current-password"` for log-in. `label` defaults to "Password".
 */
export const PasswordInput = forwardRef<HTMLInputElement, Omit<FieldProps, 'label' | 'type'> & { label?: string }>(
  function PasswordInput({ label, autoComplete = 'new-password', ...props }, ref) {
    const { t } = useTranslation();
    return (
      <TextField ref={ref} label={label ?? t('auth.password')} type="password" autoComplete={autoComplete} {...props} />
    );
  },
);

/** The line under log-in and sign-up that opens the other one ("No account? Create one"). */
export function SwitchPrompt({ text, action, onClick }: { text: string; action: string; onClick: () => void }) {
  return (
    <p className="text-center text-sm text-muted">
      {text}{' '}
      <button type="button" onClick={onClick} className="font-semibold text-primary hover:underline">
        {action}
      </button>
    </p>
  );
}

/** Forms of the auth flow show their error and their submit button like every other form. */
export { FormError } from '../../../components/ui/form-error';
export { SubmitButton } from '../../../components/ui/submit-button';

/**
 * Passes the server's answer to the form (spec §7): each field error goes to its field,
 * anything else becomes the form's error.
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  fields: readonly Path<T>[],
  setError: UseFormSetError<T>,
  fallback: string,
): void {
  if (!(error instanceof ApiRequestError)) {
    setError('root.server' as Path<T>, { message: fallback });
    return;
  }
  let placed = false;
  for (const [field, messages] of Object.entries(error.fieldErrors)) {
    if ((fields as readonly string[]).includes(field) && messages[0]) {
      setError(field as Path<T>, { message: messages[0] });
      placed = true;
    }
  }
  if (!placed)
    setError('root.server' as Path<T>, {
      message: error.status === 0 || error.status >= 500 ? fallback : (error.data?.detail ?? fallback),
    });
}
