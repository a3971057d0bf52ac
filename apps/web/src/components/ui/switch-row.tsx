import type { ReactNode } from 'react';

/**
 * A setting that is on or off: its text, then a switch (a checkbox with the switch role), in one
 * label. Settings (the creator page, marketing e-mails) and Settings → Notifications.
 */
export function SwitchRow({
  label,
  checked,
  disabled,
  onChange,
  testId,
  className = '',
}: {
  label: ReactNode;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
  testId?: string;
  className?: string;
}) {
  return (
    <label className={`flex items-center justify-between gap-4 ${className}`.trim()}>
      <span>{label}</span>
      <input
        type="checkbox"
        role="switch"
        className="size-5 shrink-0 accent-[var(--color-primary)]"
        disabled={disabled}
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        data-testid={testId}
      />
    </label>
  );
}

/**
 * A checkbox before its text (`children`), in one label: an agreement (transform rights, a
 * takedown's statement, a scene's adult confirmation) or an option (the companion's digest, a
 * lorebook for every chat, a chat's lorebooks, an entry's flags). `className` is the label's
 * look and `boxClassName` the box's, each in its place.
 */
export function CheckboxRow({
  checked,
  onChange,
  disabled,
  testId,
  name,
  invalid,
  describedBy,
  className = 'flex items-start gap-3 text-sm',
  boxClassName = 'mt-0.5 size-4',
  children,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  testId?: string;
  name?: string;
  invalid?: boolean;
  describedBy?: string;
  className?: string;
  boxClassName?: string;
  children: ReactNode;
}) {
  return (
    <label className={className}>
      <input
        type="checkbox"
        name={name}
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        disabled={disabled}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        className={boxClassName}
        data-testid={testId}
      />
      {children}
    </label>
  );
}
