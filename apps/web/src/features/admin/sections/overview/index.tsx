import '../../texts';
import { useState } from 'react';
import { Link } from 'react-router';
import { ADMIN_OVERVIEW_RANGES, type AdminOverview, type Locale } from '@reverie/shared';
import { useTranslation } from '../../../../lib/i18n';
import { formatDate, formatNumber, formatPrice } from '../../../../lib/format';
import { useAdminOverview } from '../../api/get-overview';
import { AdminRangePicker } from '../../components/admin-range-picker';
import { AdminCard, AdminError, AdminLoading } from '../../components/admin-states';
import type { AdminSectionProps } from '../../sections';
import { BarChart } from './bar-chart';

function Stat({ label, value, hint, testId }: { label: string; value: string; hint?: string; testId: string }) {
  return (
    <div className="rounded-2xl border border-white/10 bg-surface p-4" data-testid={testId}>
      <p className="text-xs text-muted">{label}</p>
      <p className="mt-1 text-2xl font-semibold tabular-nums">{value}</p>
      {hint && <p className="mt-0.5 text-xs text-muted">{hint}</p>}
    </div>
  );
}

function Attention({ data }: { data: AdminOverview['attention'] }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const items = [
    {
      id: 'takedown_overdue',
      to: '/admin/takedown',
      count: data.takedown_overdue,
      label: t('admin.overview.attention.takedown_overdue'),
      urgent: true,
    },
    {
      id: 'takedown_open',
      to: '/admin/takedown',
      count: data.takedown_open,
      label: t('admin.overview.attention.takedown_open'),
    },
    {
      id: 'message_reports',
      to: '/admin/reports',
      count: data.message_reports_open,
      label: t('admin.overview.attention.message_reports'),
    },
    {
      id: 'support_reports',
      to: '/admin/reports',
      count: data.support_reports_open,
      label: t('admin.overview.attention.support_reports'),
    },
    {
      id: 'characters_pending',
      to: '/admin/characters',
      count: data.characters_pending,
      label: t('admin.overview.attention.characters_pending'),
    },
  ];
  return (
    <section aria-label={t('admin.overview.attention.title')}>
      <h2 className="mb-2 text-sm font-semibold text-muted">{t('admin.overview.attention.title')}</h2>
      <div className="-mx-4 flex gap-2 overflow-x-auto px-4 pb-1 sm:mx-0 sm:flex-wrap sm:px-0">
        {items.map((item) => {
          const red = item.urgent && item.count > 0;
          return (
            <Link
              key={item.id}
              to={item.to}
              data-testid={`attention-${item.id}`}
              data-urgent={red || undefined}
              className={`flex shrink-0 items-center gap-2 rounded-xl border px-3 py-2 text-sm transition ${
                red
                  ? 'border-red-400/60 bg-red-950/50 text-red-100'
                  : item.count > 0
                    ? 'border-primary/40 bg-primary/10 hover:bg-primary/20'
                    : 'border-white/10 text-muted hover:bg-white/5'
              }`}
            >
              <span className="font-semibold tabular-nums">{formatNumber(item.count, locale)}</span>
              <span>{item.label}</span>
            </Link>
          );
        })}
      </div>
    </section>
  );
}

function Funnel({ funnel }: { funnel: AdminOverview['funnel'] }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const steps = [
    { id: 'visitors', value: funnel.visitors },
    { id: 'signups', value: funnel.signups },
    { id: 'first_message', value: funnel.first_message },
    { id: 'purchase', value: funnel.purchase },
  ];
  const top = Math.max(1, ...steps.map((s) => s.value));
  return (
    <AdminCard title={t('admin.overview.funnel.title')} testId="admin-funnel">
      <ol className="flex flex-col gap-3">
        {steps.map((step, i) => {
          const previous = i > 0 ? steps[i - 1]!.value : null;
          const rate = previous ? Math.round((step.value / previous) * 100) : null;
          return (
            <li key={step.id} className="flex flex-col gap-1">
              <div className="flex justify-between gap-2 text-sm">
                <span>{t(`admin.overview.funnel.${step.id}`)}</span>
                <span className="tabular-nums">
                  {formatNumber(step.value, locale)}
                  {rate !== null && (
                    <span className="ml-2 text-xs text-muted">{t('admin.overview.funnel.rate', { rate })}</span>
                  )}
                </span>
              </div>
              <div className="h-2 rounded-full bg-white/5">
                <div className="h-2 rounded-full bg-primary" style={{ width: `${(step.value / top) * 100}%` }} />
              </div>
            </li>
          );
        })}
      </ol>
      <p className="mt-3 text-xs text-muted">{t('admin.overview.funnel.note')}</p>
    </AdminCard>
  );
}

type SeriesKey = keyof AdminOverview['series'][number];

/** A chart's line: the day series it draws, its label's key and its colour. */
interface ChartLine {
  key: SeriesKey;
  label: string;
  className: string;
}

/** The charts of one line each, in the page's order. */
const ONE_SERIES_CHARTS: (ChartLine & { testId?: string })[] = [
  { key: 'signups', label: 'admin.overview.signups', className: 'fill-primary', testId: 'chart-signups' },
  { key: 'active_users', label: 'admin.overview.active_users', className: 'fill-sky-400' },
  { key: 'messages', label: 'admin.overview.messages', className: 'fill-violet-400' },
  { key: 'call_minutes', label: 'admin.overview.call_minutes', className: 'fill-emerald-400' },
  { key: 'paying_users', label: 'admin.overview.paying_users', className: 'fill-amber-400' },
];

/** The safety chart's lines. */
const SAFETY_SERIES: ChartLine[] = [
  { key: 'crisis', label: 'admin.overview.safety.crisis', className: 'fill-red-400' },
  { key: 'minors_input', label: 'admin.overview.safety.minors_input', className: 'fill-orange-400' },
  { key: 'minors_output', label: 'admin.overview.safety.minors_output', className: 'fill-yellow-300' },
];

/** The console's first page: activity, revenue, the funnel and safety events over 7/30/90 UTC days. */
export function OverviewSection(_props: AdminSectionProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const [days, setDays] = useState<number>(30);
  const query = useAdminOverview(days);
  const data = query.data;
  const n = (value: number) => formatNumber(value, locale);
  const series = (key: SeriesKey) => data?.series.map((p) => Number(p[key])) ?? [];
  const dayList = data?.series.map((p) => p.day) ?? [];
  return (
    <div className="flex flex-col gap-5" data-testid="admin-overview">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold">{t('admin.overview.title')}</h2>
        <AdminRangePicker value={days} options={ADMIN_OVERVIEW_RANGES} onChange={setDays} />
      </header>
      {query.isError && <AdminError onRetry={() => void query.refetch()} />}
      {!data && query.isPending && <AdminLoading rows={4} />}
      {data && (
        <>
          <Attention data={data.attention} />
          <p className="text-xs text-muted">
            {t('admin.overview.range_note', {
              from: formatDate(`${data.from}T12:00:00Z`, locale),
              to: formatDate(`${data.to}T12:00:00Z`, locale),
            })}
          </p>
          <div className="grid grid-cols-2 gap-3 lg:grid-cols-3">
            <Stat testId="stat-signups" label={t('admin.overview.signups')} value={n(data.totals.signups)} />
            <Stat
              testId="stat-active"
              label={t('admin.overview.active_users')}
              value={n(data.totals.active_users)}
              hint={t('admin.overview.active_users_hint')}
            />
            <Stat testId="stat-messages" label={t('admin.overview.messages')} value={n(data.totals.messages)} />
            <Stat
              testId="stat-calls"
              label={t('admin.overview.calls')}
              value={n(data.totals.calls)}
              hint={t('admin.overview.minutes', { minutes: n(data.totals.call_minutes) })}
            />
            <Stat
              testId="stat-revenue"
              label={t('admin.overview.revenue')}
              value={
                data.revenue.length
                  ? data.revenue.map((r) => formatPrice(r.amount_cents, r.currency, locale)).join(' · ')
                  : formatPrice(0, 'usd', locale)
              }
              hint={t('admin.overview.payments_count', {
                count: data.revenue.reduce((sum, r) => sum + r.payments, 0),
              })}
            />
            <Stat testId="stat-paying" label={t('admin.overview.paying_users')} value={n(data.totals.paying_users)} />
          </div>
          <div className="grid gap-4 lg:grid-cols-2">
            {ONE_SERIES_CHARTS.map((chart) => (
              <AdminCard key={chart.key}>
                <BarChart
                  testId={chart.testId}
                  label={t(chart.label)}
                  days={dayList}
                  locale={locale}
                  series={[{ label: t(chart.label), className: chart.className, values: series(chart.key) }]}
                />
              </AdminCard>
            ))}
            <AdminCard>
              <BarChart
                testId="chart-safety"
                label={t('admin.overview.safety.title')}
                days={dayList}
                locale={locale}
                series={SAFETY_SERIES.map((line) => ({
                  label: t(line.label),
                  className: line.className,
                  values: series(line.key),
                }))}
              />
              <p className="mt-2 text-xs text-muted">
                {t('admin.overview.safety.totals', {
                  crisis: n(data.totals.crisis),
                  minors_input: n(data.totals.minors_input),
                  minors_output: n(data.totals.minors_output),
                })}
              </p>
            </AdminCard>
          </div>
          <Funnel funnel={data.funnel} />
        </>
      )}
    </div>
  );
}
