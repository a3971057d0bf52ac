import type { LucideIcon } from 'lucide-react';
import { Icon } from './icon';

const LOOKS = {
  /** In a top bar (the chat's search and memories). */
  bar: { className: 'rounded-full p-2.5 text-muted hover:bg-white/10 hover:text-fg', size: 'md' },
  /** Under a message (copy, listen, regenerate…). */
  small: {
    className:
      'rounded-full p-1 text-muted hover:bg-white/10 hover:text-fg disabled:opacity-40 disabled:hover:bg-transparent',
    size: 'sm',
  },
} as const;

/** A round button that shows only its icon; `label` is its name and its tooltip. */
export function IconButton({
  icon,
  label,
  onClick,
  disabled,
  testId,
  look,
}: {
  icon: LucideIcon;
  label: string;
  onClick: () => void;
  disabled?: boolean;
  testId?: string;
  look: keyof typeof LOOKS;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled}
      aria-label={label}
      title={label}
      data-testid={testId}
      className={LOOKS[look].className}
    >
      <Icon icon={icon} size={LOOKS[look].size} />
    </button>
  );
}
