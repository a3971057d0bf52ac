import { useTranslation } from '../../../lib/i18n';

/** A choice of ranges in days (7 / 30 / 90), as a segmented control. */
export function AdminRangePicker({
  value,
  options,
  onChange,
}: {
  value: number;
  options: readonly number[];
  onChange: (days: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <div role="radiogroup" aria-label={t('admin.common.range')} className="inline-flex rounded-xl bg-white/5 p-1">
      {options.map((days) => (
        <button
          key={days}
          type="button"
          role="radio"
          aria-checked={value === days}
          data-testid={`admin-range-${days}`}
          onClick={() => onChange(days)}
          className={`rounded-lg px-3 py-1.5 text-sm transition ${
            value === days ? 'bg-primary font-medium text-on-primary' : 'text-muted hover:text-white'
          }`}
        >
          {t('admin.common.days', { count: days })}
        </button>
      ))}
    </div>
  );
}
