import { useTranslation } from '../../../lib/i18n';
import { ChoiceButtons } from '../../../components/ui/segmented-control';

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
    <ChoiceButtons
      options={options.map((days) => ({ value: days, label: t('admin.common.days', { count: days }) }))}
      value={value}
      onChange={onChange}
      label={t('admin.common.range')}
      testId={(days) => `admin-range-${days}`}
      className="inline-flex rounded-xl bg-white/5 p-1"
      buttonClass={(chosen) =>
        `rounded-lg px-3 py-1.5 text-sm transition ${
          chosen ? 'bg-primary font-medium text-on-primary' : 'text-muted hover:text-white'
        }`
      }
    />
  );
}
