import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { Skeleton } from '../../../components/ui/page';

/** Nothing to show (an empty list, no results). */
export function AdminEmpty({ children }: { children: ReactNode }) {
  return (
    <p
      className="rounded-2xl border border-dashed border-white/10 p-8 text-center text-sm text-muted"
      data-testid="admin-empty"
    >
      {children}
    </p>
  );
}

/** A list or page could not load; `onRetry` asks again. */
export function AdminError({ onRetry }: { onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-red-400/30 bg-red-950/40 p-4 text-sm text-red-100"
    >
      <span>{t('admin.common.load_failed')}</span>
      {onRetry && (
        <button type="button" onClick={onRetry} className="rounded-xl bg-white/10 px-3 py-1.5 hover:bg-white/15">
          {t('admin.common.retry')}
        </button>
      )}
    </div>
  );
}

/** Placeholder rows while a list loads. */
export function AdminLoading({ rows = 3 }: { rows?: number }) {
  return (
    <div className="flex flex-col gap-3" aria-busy="true">
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className="h-14" />
      ))}
    </div>
  );
}

/** A titled card of a section (white-on-surface, rounded). */
export function AdminCard({
  title,
  actions,
  children,
  testId,
}: {
  title?: string;
  actions?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <section className="rounded-2xl border border-white/10 bg-surface p-4 sm:p-5" data-testid={testId}>
      {(title || actions) && (
        <header className="mb-3 flex flex-wrap items-center justify-between gap-2">
          {title && <h2 className="text-base font-semibold">{title}</h2>}
          {actions}
        </header>
      )}
      {children}
    </section>
  );
}
