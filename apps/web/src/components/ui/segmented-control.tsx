import type { ReactNode } from 'react';

/** One option of a `ChoiceButtons` group: its value and its content (its text, an icon before it). */
export type Choice<T> = { value: T; label: ReactNode; disabled?: boolean; describedBy?: string };

/**
 * How the chosen option is told: radios in a radiogroup (`aria-checked`), tabs in a tablist
 * (`aria-selected`), or toggles (`aria-pressed`, in a plain box).
 */
const KINDS = {
  radio: { group: 'radiogroup', state: 'aria-checked' },
  tab: { group: 'tablist', state: 'aria-selected' },
  toggle: { group: undefined, state: 'aria-pressed' },
} as const;

/**
 * A few options as buttons, one of them chosen (`value`): the segmented control, the console's
 * tabs, ranges and filter chips, the payment method, a memory's kind, a character's style.
 * `className` gives the group's box; `buttonClass` each button's look, chosen or not.
 */
export function ChoiceButtons<T extends string | number>({
  options,
  value,
  onChange,
  kind = 'radio',
  label,
  className,
  buttonClass,
  testId,
}: {
  options: readonly Choice<T>[];
  value: T;
  onChange: (value: T) => void;
  kind?: keyof typeof KINDS;
  /** The group's accessible name, when no legend or heading names it. */
  label?: string;
  className: string;
  buttonClass: (chosen: boolean) => string;
  testId?: (value: T) => string;
}) {
  const { group, state } = KINDS[kind];
  return (
    <div role={group} aria-label={label} className={className}>
      {options.map((option) => {
        const chosen = value === option.value;
        return (
          <button
            key={option.value}
            type="button"
            role={group && kind}
            {...{ [state]: chosen }}
            disabled={option.disabled}
            aria-describedby={option.describedBy}
            onClick={() => onChange(option.value)}
            data-testid={testId?.(option.value)}
            className={buttonClass(chosen)}
          >
            {option.label}
          </button>
        );
      })}
    </div>
  );
}

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
