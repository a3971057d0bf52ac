import { useTranslation } from '../../lib/i18n';

/** A count of unread messages (99+ beyond), read aloud as "Unread messages: N"; nothing at 0. */
export function UnreadBadge({
  count,
  className = '',
  testId = 'unread-badge',
}: {
  count: number;
  className?: string;
  testId?: string;
}) {
  const { t } = useTranslation();
  if (count <= 0) return null;
  return (
    <span
      className={`inline-flex min-w-5 items-center justify-center rounded-full bg-primary px-1.5 text-[11px] leading-5 font-semibold text-on-primary ${className}`}
      aria-label={t('nav.unread', { count })}
      role="status"
      data-testid={testId}
    >
      {count > 99 ? '99+' : count}
    </span>
  );
}
