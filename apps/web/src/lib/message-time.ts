import { LOCALE_HTML_LANG, toLocale } from '@reverie/shared';

const formats = new Map<string, Intl.DateTimeFormat>();

function formatter(tag: string, withDate: boolean, withYear: boolean): Intl.DateTimeFormat {
  const key = `${tag}|${withDate}|${withYear}`;
  let format = formats.get(key);
  if (!format) {
    // Today: the locale's short time ("9:07 AM", "09:07"); older: day, month (year) and time.
    format = new Intl.DateTimeFormat(
      tag,
      withDate
        ? {
            day: 'numeric',
            month: 'short',
            ...(withYear ? { year: 'numeric' } : {}),
            hour: 'numeric',
            minute: '2-digit',
          }
        : { timeStyle: 'short' },
    );
    formats.set(key, format);
  }
  return format;
}

const sameDay = (a: Date, b: Date) =>
  a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();

/**
 * When a message was sent, in the interface language (`ch` → zh-CN): the time for today's
 * messages ("14:05", "2:05 PM"), the date and time for older ones ("12 Nov, 14:05"; with the
 * year when it is not this year). Empty for an invalid date.
 */
export function formatMessageTime(iso: string, language: string, now: Date = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const locale = toLocale(language);
  const tag = locale ? LOCALE_HTML_LANG[locale] : language;
  const today = sameDay(date, now);
  return formatter(tag, !today, date.getFullYear() !== now.getFullYear()).format(date);
}

/** The full date and time, for the tooltip. */
export function formatMessageDateTime(iso: string, language: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const locale = toLocale(language);
  return new Intl.DateTimeFormat(locale ? LOCALE_HTML_LANG[locale] : language, {
    dateStyle: 'full',
    timeStyle: 'short',
  }).format(date);
}
