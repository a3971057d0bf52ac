import type { ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';
import type { IconSize } from '@reverie/shared';
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
  /** In a row of a list (a scene's characters and people). */
  row: { className: 'rounded-full p-2 text-muted hover:bg-white/10 hover:text-fg', size: 'md' },
  /** In a row of a list, for what takes something away (remove, block). */
  rowDanger: { className: 'rounded-full p-2 text-muted hover:bg-white/10 hover:text-red-300', size: 'md' },
  /** The composer's send. */
  send: {
    className:
      'flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-primary text-on-primary shadow-lg shadow-primary/30 hover:brightness-110 disabled:opacity-40 disabled:shadow-none',
    size: 'md',
  },
  /** The composer's stop, while a reply is written. */
  stop: {
    className:
      'flex h-11 w-11 shrink-0 items-center justify-center rounded-full border border-white/20 bg-surface text-fg hover:bg-white/10',
    size: 'sm',
    iconClassName: 'fill-current',
  },
} as const satisfies Record<string, { className: string; size: IconSize; iconClassName?: string }>;

type ButtonProps = {
  icon: LucideIcon;
  onClick?: () => void;
  disabled?: boolean;
  testId?: string;
};

/**
 * A round button that shows only its icon; `label` is its name and its tooltip. `className`
 * goes before the look's classes (its place in a row); `type="submit"` sends the form it stands in.
 */
export function IconButton({
  icon: glyph,
  label,
  onClick,
  disabled,
  testId,
  look = 'row',
  className,
  type = 'button',
}: ButtonProps & {
  label: string;
  look?: keyof typeof LOOKS;
  className?: string;
  type?: 'button' | 'submit';
}) {
  const { className: lookClass, size, ...icon } = LOOKS[look];
  return (
    <button
      type={type}
      onClick={onClick}
      disabled={disabled}
      aria-label={label}
      title={label}
      data-testid={testId}
      className={className ? `${className} ${lookClass}` : lookClass}
    >
      <Icon icon={glyph} size={size} className={'iconClassName' in icon ? icon.iconClassName : undefined} />
    </button>
  );
}

/** A button with a small icon before its text (`children`); `className` is its whole look. */
export function IconTextButton({
  icon,
  onClick,
  disabled,
  testId,
  className,
  children,
}: ButtonProps & { className: string; children: ReactNode }) {
  return (
    <button type="button" onClick={onClick} disabled={disabled} data-testid={testId} className={className}>
      <Icon icon={icon} size="sm" />
      {children}
    </button>
  );
}
