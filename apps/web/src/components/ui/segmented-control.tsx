import { ChoiceButtons } from './choice-buttons';

/**
 * A choice of a few options as one segmented radio group (the create dialog's kind, who can
 * see a character, the console's character scope). `fill` spreads the options over the whole
 * width in equal parts; otherwise the group is as wide as its labels. `className` adds to the
 * group's box (margins, a maximum width).
 */
export function SegmentedControl<T extends string>({
  options,
  value,
  onChange,
  label,
  fill = false,
  className = '',
}: {
  options: readonly { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
  /** The group's accessible name, when no legend or heading names it. */
  label?: string;
  fill?: boolean;
  className?: string;
}) {
  return (
    <ChoiceButtons
      options={options}
      value={value}
      onChange={onChange}
      label={label}
      className={`${fill ? 'grid auto-cols-fr grid-flow-col' : 'inline-flex self-start'} gap-1 rounded-full bg-bg p-1 ${className}`}
      buttonClass={(chosen) =>
        `rounded-full px-4 py-1.5 text-sm font-medium ${chosen ? 'bg-primary text-on-primary' : 'text-muted'}`
      }
    />
  );
}
