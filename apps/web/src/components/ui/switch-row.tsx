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
