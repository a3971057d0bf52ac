/** Seconds as m:ss, or h:mm:ss from an hour on (a call's clock). */
export function formatDuration(totalSeconds: number): string {
  const whole = Number.isFinite(totalSeconds) && totalSeconds > 0 ? Math.floor(totalSeconds) : 0;
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const seconds = String(whole % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** The local time `seconds` from now, as the reader's language writes a time of day. */
export function timeFromNow(seconds: number, locale: string, now = Date.now()): string {
  return new Intl.DateTimeFormat(locale === 'ch' ? 'zh-CN' : locale, { hour: 'numeric', minute: '2-digit' }).format(
    new Date(now + seconds * 1000),
  );
}
