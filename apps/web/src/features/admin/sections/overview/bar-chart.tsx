import type { Locale } from '@reverie/shared';
import { formatDate, formatNumber } from '../../../../lib/format';
import { useTranslation } from '../../../../lib/i18n';

export interface ChartSeries {
  /** A translated label (the legend). */
  label: string;
  /** Tailwind fill class of its bars, e.g. `fill-primary`. */
  className: string;
  values: number[];
}

const WIDTH = 600;
const HEIGHT = 160;
const GAP = 2;

/**
 * A daily bar chart drawn in SVG (no chart library: the console stays a small chunk). Several
 * series are stacked. Each bar carries a `<title>` (day and values) for a pointer or a screen
 * reader; the first and last days and the highest value label the axes.
 */
export function BarChart({
  days,
  series,
  locale,
  label,
  testId,
}: {
  /** The UTC days (`YYYY-MM-DD`), one bar each. */
  days: string[];
  series: ChartSeries[];
  locale: Locale;
  label: string;
  testId?: string;
}) {
  const { t } = useTranslation();
  const totals = days.map((_, i) => series.reduce((n, s) => n + (s.values[i] ?? 0), 0));
  const max = Math.max(1, ...totals);
  const step = WIDTH / Math.max(1, days.length);
  const bar = Math.max(1, step - GAP);
  const dayText = (day: string) => formatDate(`${day}T12:00:00Z`, locale);
  return (
    <figure className="flex flex-col gap-2" data-testid={testId}>
      <div className="flex items-baseline justify-between gap-2 text-xs text-muted">
        <figcaption className="text-sm font-medium text-white">{label}</figcaption>
        <span>{t('admin.overview.chart_max', { value: formatNumber(Math.max(...totals, 0), locale) })}</span>
      </div>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        className="h-32 w-full rounded-xl bg-white/[0.03]"
        role="img"
        aria-label={label}
      >
        {days.map((day, i) => {
          let y = HEIGHT;
          return (
            <g key={day}>
              <title>
                {`${dayText(day)}: ${series.map((s) => `${s.label} ${formatNumber(s.values[i] ?? 0, locale)}`).join(', ')}`}
              </title>
              <rect x={i * step} y={0} width={step} height={HEIGHT} fill="transparent" />
              {series.map((s) => {
                const h = ((s.values[i] ?? 0) / max) * (HEIGHT - 8);
                y -= h;
                return h > 0 ? (
                  <rect
                    key={s.label}
                    x={i * step + GAP / 2}
                    y={y}
                    width={bar}
                    height={h}
                    rx={1}
                    className={s.className}
                  />
                ) : null;
              })}
            </g>
          );
        })}
      </svg>
      <div className="flex justify-between text-xs text-muted">
        <span>{days[0] ? dayText(days[0]) : ''}</span>
        {series.length > 1 && (
          <span className="flex flex-wrap justify-center gap-3">
            {series.map((s) => (
              <span key={s.label} className="inline-flex items-center gap-1">
                <svg width="10" height="10" aria-hidden="true">
                  <rect width="10" height="10" rx="2" className={s.className} />
                </svg>
                {s.label}
              </span>
            ))}
          </span>
        )}
        <span>{days.length ? dayText(days[days.length - 1]!) : ''}</span>
      </div>
    </figure>
  );
}
