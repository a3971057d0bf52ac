import type { ReactNode } from 'react';
import { Link } from 'react-router';

/**
 * The buttons of a detail page's action panels (a report's resolve and removal, a takedown's).
 * The filled ones carry a clear border so that they are as tall as the outlined one beside them.
 */
const actionButton = {
  primary:
    'rounded-full border border-transparent bg-primary px-5 py-2.5 text-sm font-semibold text-on-primary transition hover:brightness-110 disabled:opacity-50',
  secondary:
    'rounded-full border border-white/15 px-5 py-2.5 text-sm font-semibold transition hover:bg-white/5 disabled:opacity-50',
  danger:
    'rounded-full border border-transparent bg-red-500 px-5 py-2.5 text-sm font-semibold text-white transition hover:brightness-110 disabled:opacity-50',
};

/** A button of an action panel: `kind` is its look (the panel's main action, another, a removal). */
export function DetailAction({
  kind,
  onClick,
  disabled,
  testId,
  children,
}: {
  kind: keyof typeof actionButton;
  onClick: () => void;
  disabled?: boolean;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <button type="button" disabled={disabled} onClick={onClick} className={actionButton[kind]} data-testid={testId}>
      {children}
    </button>
  );
}

/**
 * One item's page in the console (a message report, a support report, a takedown request):
 * the way back to its list, the item, and the last action's failure (`error`) under it.
 */
export function DetailPage({
  testId,
  back,
  backLabel,
  error,
  children,
}: {
  testId: string;
  back: string;
  backLabel: string;
  error?: string | null;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-5" data-testid={testId}>
      <Link to={back} className="text-sm text-muted hover:text-fg">
        ← {backLabel}
      </Link>
      {children}
      {error && (
        <p role="alert" className="text-sm text-red-300">
          {error}
        </p>
      )}
    </div>
  );
}
