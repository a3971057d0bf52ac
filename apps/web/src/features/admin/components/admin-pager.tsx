import { useCallback, useState, type ReactNode } from 'react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useTranslation } from '../../../lib/i18n';
import { Icon } from '../../../components/ui/icon';
import { AdminEmpty, AdminError, AdminLoading } from './admin-states';

/**
 * Keyset pages: the cursor of the page shown and the ones before it. `next(cursor)` moves on
 * with a page's `next_param`, `prev()` goes back, `reset()` returns to the first page (when a
 * filter changes).
 */
export function useKeysetPages() {
  const [stack, setStack] = useState<string[]>([]);
  const cursor = stack.length ? stack[stack.length - 1]! : undefined;
  const next = useCallback((c: string) => setStack((s) => [...s, c]), []);
  const prev = useCallback(() => setStack((s) => s.slice(0, -1)), []);
  const reset = useCallback(() => setStack([]), []);
  return { cursor, page: stack.length + 1, hasPrev: stack.length > 0, next, prev, reset };
}

/**
 * A keyset list's text filter (the audit's action and target, the ledger's user): typing goes
 * back to the first page. `label` is its name, and its placeholder unless one is given.
 */
export function KeysetFilter({
  value,
  onChange,
  onReset,
  label,
  placeholder = label,
  maxLength,
  testId,
  className,
}: {
  value: string;
  onChange: (value: string) => void;
  /** The pages' `reset` (useKeysetPages). */
  onReset: () => void;
  label: string;
  placeholder?: string;
  maxLength: number;
  testId?: string;
  /** Its place in the row, after its look. */
  className?: string;
}) {
  const look =
    'rounded-xl border border-white/10 bg-surface px-3 py-2 text-sm outline-none placeholder:text-muted focus:border-primary';
  return (
    <input
      value={value}
      maxLength={maxLength}
      aria-label={label}
      placeholder={placeholder}
      data-testid={testId}
      onChange={(event) => {
        onChange(event.target.value);
        onReset();
      }}
      className={className ? `${look} ${className}` : look}
    />
  );
}

/** Previous / next buttons of a list, with the page number between them. */
export function AdminPager({
  page,
  hasPrev,
  hasNext,
  onPrev,
  onNext,
}: {
  page: number;
  hasPrev: boolean;
  hasNext: boolean;
  onPrev: () => void;
  onNext: () => void;
}) {
  const { t } = useTranslation();
  if (!hasPrev && !hasNext) return null;
  const button =
    'inline-flex items-center gap-1 rounded-xl border border-white/10 px-3 py-2 text-sm transition hover:bg-white/5 disabled:opacity-40 disabled:hover:bg-transparent';
  return (
    <nav aria-label={t('admin.common.pages')} className="mt-4 flex items-center justify-between gap-3">
      <button type="button" className={button} disabled={!hasPrev} onClick={onPrev} data-testid="admin-prev">
        <Icon icon={ChevronLeft} size="sm" />
        {t('admin.common.previous')}
      </button>
      <span className="text-sm text-muted">{t('admin.common.page', { page })}</span>
      <button type="button" className={button} disabled={!hasNext} onClick={onNext} data-testid="admin-next">
        {t('admin.common.next')}
        <Icon icon={ChevronRight} size="sm" />
      </button>
    </nav>
  );
}

/** What a keyset list's query gives: a page of results and the cursor of the next one. */
interface KeysetQuery<T> {
  data?: { results: T[]; next_param: string | null };
  isPending: boolean;
  isError: boolean;
  refetch: () => unknown;
}

/**
 * A keyset list's states around its rows: the error with a retry, the loading rows, `empty` when
 * the page holds nothing, else `children(rows)`; then the pager.
 */
export function KeysetResults<T>({
  query,
  pages,
  empty,
  children,
}: {
  query: KeysetQuery<T>;
  pages: ReturnType<typeof useKeysetPages>;
  empty: string;
  children: (rows: T[]) => ReactNode;
}) {
  const data = query.data;
  return (
    <>
      {query.isError && <AdminError onRetry={() => void query.refetch()} />}
      {!data && query.isPending && <AdminLoading />}
      {data && (data.results.length === 0 ? <AdminEmpty>{empty}</AdminEmpty> : children(data.results))}
      <AdminPager
        page={pages.page}
        hasPrev={pages.hasPrev}
        hasNext={Boolean(data?.next_param)}
        onPrev={pages.prev}
        onNext={() => data?.next_param && pages.next(data.next_param)}
      />
    </>
  );
}
