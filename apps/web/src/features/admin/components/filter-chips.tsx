import { ChoiceButtons } from '../../../components/ui/segmented-control';

/**
 * The filters of a console list as toggle chips (a reports list's open / resolved / closed, the
 * takedown requests' states). `strong` marks the chosen chip in the primary colour, for a list
 * with no tabs above it.
 */
export function FilterChips<T extends string>({
  value,
  options,
  onChange,
  label,
  strong = false,
}: {
  value: T;
  options: readonly T[];
  onChange: (value: T) => void;
  label: (option: T) => string;
  strong?: boolean;
}) {
  const chosen = strong ? 'bg-primary text-on-primary' : 'bg-white/15 text-fg';
  return (
    <ChoiceButtons
      kind="toggle"
      options={options.map((option) => ({ value: option, label: label(option) }))}
      value={value}
      onChange={onChange}
      className="flex flex-wrap gap-2"
      buttonClass={(isChosen) =>
        `rounded-full px-3 py-1.5 text-sm transition ${
          isChosen ? chosen : 'bg-white/5 text-muted hover:bg-white/10 hover:text-fg'
        }`
      }
    />
  );
}
