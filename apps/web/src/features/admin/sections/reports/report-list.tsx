import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { Locale } from '@reverie/shared';
import { Skeleton } from '../../../../components/ui/page';
import { formatDateTime } from '../../../../lib/format';
import { useTranslation } from '../../../../lib/i18n';
import { FilterChips } from '../../components/filter-chips';

/** One row of a reports list: what it is, its text, who and where, when. */
export interface ReportRow {
  id: string | number;
  to: string;
  title: ReactNode;
  text: string;
  detail: ReactNode;
  createdAt: string;
}

/**
 * A list of reports (message reports, support reports), oldest open first, filtered by status:
 * stacked cards on a phone, rows on a desktop (`columns`: the desktop grid's columns).
 */
export function ReportList<S extends string, R>({
  statuses,
  useReports,
  toRow,
  columns,
  testId,
  rowTestId,
}: {
  statuses: readonly [S, ...S[]];
  useReports: (status: S) => { data?: { items: R[] }; isPending: boolean; isError: boolean };
  toRow: (report: R) => ReportRow;
  columns: string;
  testId: string;
  rowTestId: string;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const [status, setStatus] = useState<S>(statuses[0]);
  const { data, isPending, isError } = useReports(status);
  return (
    <div className="flex flex-col gap-3" data-testid={testId}>
      <FilterChips
        value={status}
        options={statuses}
        onChange={setStatus}
        label={(option) => t(`admin.reports.filter_${option}`)}
      />
      {isPending && <Skeleton className="h-40" />}
      {isError && <p className="text-red-300">{t('admin.reports.error')}</p>}
      {data?.items.length === 0 && <p className="text-muted">{t('admin.reports.empty')}</p>}
      <ul className="flex flex-col gap-2">
        {data?.items.map(toRow).map((row) => (
          <li key={row.id}>
            <Link
              to={row.to}
              className={`grid gap-1 rounded-2xl border border-white/10 bg-surface p-4 transition hover:border-white/20 md:items-center md:gap-4 ${columns}`}
              data-testid={rowTestId}
            >
              {row.title}
              <span className="min-w-0">
                <span className="block truncate text-sm">{row.text}</span>
                <span className="block truncate text-xs text-muted">{row.detail}</span>
              </span>
              <span className="text-xs text-muted">{formatDateTime(row.createdAt, locale)}</span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
