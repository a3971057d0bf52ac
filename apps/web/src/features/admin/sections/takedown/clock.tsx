import { useEffect, useState } from 'react';
import type { Locale } from '@reverie/shared';
import { useTranslation } from '../../../../lib/i18n';
import { formatCountdown, formatRelative } from '../../../../lib/format';

/** The current time, again every `everyMs`. */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/**
 * A request's 48-hour clock: the time left while it is open, "overdue" in red once its
 * 48 hours are over, nothing once it is handled.
 */
export function TakedownClock({ status, dueAt, overdue }: { status: string; dueAt: string; overdue: boolean }) {
  const { t, i18n } = useTranslation();
  const now = useNow();
  if (status !== 'open') return null;
  const left = new Date(dueAt).getTime() - now;
  if (overdue || left <= 0) {
    return (
      <span
        className="inline-flex items-center rounded-full bg-red-500/15 px-2.5 py-0.5 text-xs font-semibold text-red-300"
        data-testid="takedown-overdue"
      >
        {t('admin.takedown.overdue', { when: formatRelative(dueAt, i18n.language as Locale, now) })}
      </span>
    );
  }
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 font-mono text-xs font-semibold ${
        left < 6 * 3600_000 ? 'bg-amber-500/15 text-amber-200' : 'bg-white/10 text-fg'
      }`}
      data-testid="takedown-time-left"
    >
      {t('admin.takedown.time_left', { time: formatCountdown(left) })}
    </span>
  );
}
