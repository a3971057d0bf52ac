import type { ReactNode } from 'react';

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
