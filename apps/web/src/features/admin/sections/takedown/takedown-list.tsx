import { useState } from 'react';
import { Link } from 'react-router';
import type { AdminTakedownListQuery, Locale } from '@reverie/shared';
import { useTranslation } from '../../../../lib/i18n';
import { formatDateTime } from '../../../../lib/format';
import { Skeleton } from '../../../../components/ui/page';
import { useTakedowns } from '../../api/get-takedowns';
import { AdminSectionPage } from '../../components/admin-section-heading';
import { FilterChips } from '../../components/filter-chips';
import { TakedownClock } from './clock';

const STATUSES = ['open', 'removed', 'rejected', 'all'] as const;

/** The requests with their 48-hour clock: stacked cards on a phone, a table's rows on a desktop. */
export function TakedownList() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const [query, setQuery] = useState<Required<AdminTakedownListQuery>>({ status: 'open', order: 'oldest' });
  const { data, isPending, isError } = useTakedowns(query);
  return (
    <AdminSectionPage
      id="takedown"
      title={t('admin.takedown.title')}
      intro={t('admin.takedown.intro')}
      testId="admin-takedown-list"
    >
      <div className="flex flex-wrap items-center gap-2">
        <FilterChips
          value={query.status}
          options={STATUSES}
          onChange={(status) => setQuery((q) => ({ ...q, status }))}
          label={(status) => t(`admin.takedown.filter_${status}`)}
          strong
        />
        <label className="ml-auto flex items-center gap-2 text-sm text-muted">
          <span>{t('admin.takedown.order_label')}</span>
          <select
            value={query.order}
            onChange={(e) => setQuery((q) => ({ ...q, order: e.target.value as 'oldest' | 'newest' }))}
            className="rounded-xl border border-white/10 bg-bg/60 px-3 py-1.5 text-fg"
          >
            <option value="oldest">{t('admin.takedown.order_oldest')}</option>
            <option value="newest">{t('admin.takedown.order_newest')}</option>
          </select>
        </label>
      </div>
      {isPending && <Skeleton className="h-40" />}
      {isError && <p className="text-red-300">{t('admin.takedown.error')}</p>}
      {data && data.items.length === 0 && <p className="text-muted">{t('admin.takedown.empty')}</p>}
      {data && data.items.length > 0 && (
        <ul className="flex flex-col gap-2">
          <li className="hidden grid-cols-[9rem_1fr_10rem_11rem] gap-4 px-4 text-xs text-muted uppercase md:grid">
            <span>{t('admin.takedown.col_reference')}</span>
            <span>{t('admin.takedown.col_request')}</span>
            <span>{t('admin.takedown.col_received')}</span>
            <span>{t('admin.takedown.col_clock')}</span>
          </li>
          {data.items.map((item) => (
            <li key={item.id}>
              <Link
                to={`/admin/takedown/${item.id}`}
                className="grid gap-2 rounded-2xl border border-white/10 bg-surface p-4 transition hover:border-white/20 md:grid-cols-[9rem_1fr_10rem_11rem] md:items-center md:gap-4"
                data-testid="admin-takedown-row"
              >
                <span className="font-mono text-sm font-semibold">{item.reference}</span>
                <span className="min-w-0">
                  <span className="block truncate text-sm">{item.description}</span>
                  <span className="block truncate text-xs text-muted">
                    {item.email} · {t('admin.takedown.item_count', { count: item.item_count })}
                  </span>
                </span>
                <span className="text-xs text-muted">{formatDateTime(item.created_at, locale)}</span>
                <span>
                  {item.status === 'open' ? (
                    <TakedownClock status={item.status} dueAt={item.due_at} overdue={item.overdue} />
                  ) : (
                    <span className="text-xs text-muted">{t(`admin.takedown.status_${item.status}`)}</span>
                  )}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </AdminSectionPage>
  );
}
