import { useTranslation } from '../../../../lib/i18n';

/** Open / resolved / closed filters of a reports list. */
export function StatusChips<T extends string>({
  value,
  options,
  onChange,
}: {
  value: T;
  options: readonly T[];
  onChange: (value: T) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-wrap gap-2">
      {options.map((option) => (
        <button
          key={option}
          type="button"
          aria-pressed={value === option}
          onClick={() => onChange(option)}
          className={`rounded-full px-3 py-1.5 text-sm transition ${
            value === option ? 'bg-white/15 text-fg' : 'bg-white/5 text-muted hover:bg-white/10 hover:text-fg'
          }`}
        >
          {t(`admin.reports.filter_${option}`)}
        </button>
      ))}
    </div>
  );
}
