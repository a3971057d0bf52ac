import type { ReactNode } from 'react';
import { Loader2 } from 'lucide-react';
import type { IconSize } from '@reverie/shared';
import { Icon } from './icon';

/** A form's main button, full width (`className` adds to it); `busy` holds it while the form is sent. */
export function SubmitButton({
  children,
  busy,
  className = '',
}: {
  children: ReactNode;
  busy?: boolean;
  className?: string;
}) {
  return (
    <button
      type="submit"
      disabled={busy}
      aria-busy={busy || undefined}
      className={`w-full rounded-full bg-primary px-6 py-3 font-semibold text-on-primary shadow-lg shadow-primary/30 transition hover:brightness-110 disabled:opacity-60 ${className}`}
    >
      {children}
    </button>
  );
}

/**
 * A button that turns a spinner on before its text while its action runs (`busy`): the
 * payments' buy, approve and decline buttons, the daily claim. `className` is its whole look.
 */
export function BusyButton({
  busy,
  disabled,
  onClick,
  testId,
  className,
  spinnerSize = 'md',
  children,
}: {
  busy: boolean;
  disabled: boolean;
  onClick: () => void;
  testId?: string;
  className: string;
  spinnerSize?: IconSize;
  children: ReactNode;
}) {
  return (
    <button type="button" disabled={disabled} onClick={onClick} data-testid={testId} className={className}>
      {busy && <Icon icon={Loader2} size={spinnerSize} className="animate-spin" />}
      {children}
    </button>
  );
}
