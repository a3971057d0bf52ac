import { formatBalance as formatBalanceIn, LOCALE_HTML_LANG, type Locale } from '@reverie/shared';

/**
 * Numbers, prices and dates as the interface language writes them, through `Intl` (one
 * module for the whole web app; `features/billing/format.ts` re-exports it). Our `ch` is
 * `zh-CN` for Intl (`LOCALE_HTML_LANG`): passing `ch` itself would mean Chamorro.
 */
export const intlLocale = (locale: Locale): string => LOCALE_HTML_LANG[locale];

const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat>();

/**
 * One formatter per kind, language and options, made once: making one is what costs (the first
 * of a page ≈ 40–90 ms of a phone's CPU, each later one still far more than using it), and lists
 * format a date or a number per row on every render.
 */
function formatter<K extends 'date' | 'number' | 'relative'>(
  kind: K,
  locale: Locale,
  options: K extends 'date'
    ? Intl.DateTimeFormatOptions
    : K extends 'number'
      ? Intl.NumberFormatOptions
      : Intl.RelativeTimeFormatOptions,
): K extends 'date' ? Intl.DateTimeFormat : K extends 'number' ? Intl.NumberFormat : Intl.RelativeTimeFormat {
  const key = `${kind}|${locale}|${JSON.stringify(options)}`;
  let made = formatters.get(key);
  if (!made) {
    const tag = intlLocale(locale);
    made =
      kind === 'date'
        ? new Intl.DateTimeFormat(tag, options as Intl.DateTimeFormatOptions)
        : kind === 'number'
          ? new Intl.NumberFormat(tag, options as Intl.NumberFormatOptions)
          : new Intl.RelativeTimeFormat(tag, options as Intl.RelativeTimeFormatOptions);
    formatters.set(key, made);
  }
  return made as never;
}

/** A whole number with the language's grouping: 1,000 (en), 1.000 (de), 1 000 (ru). */
export function formatNumber(value: number, locale: Locale): string {
  return formatter('number', locale, { maximumFractionDigits: 0 }).format(value);
}

/** A desire balance: never negative or fractional, grouped per language. */
export function formatBalance(value: number, locale: Locale): string {
  return formatBalanceIn(value, locale);
}

/** A price in integer cents as the interface language writes it ($1.99, 1,99 $, …); nothing is "$0". */
export function formatPrice(cents: number, currency: string, locale: Locale): string {
  return formatter('number', locale, {
    style: 'currency',
    currency: currency.toUpperCase(),
    ...(cents === 0 ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {}),
  }).format(cents / 100);
}

/** A date in the interface language, e.g. "Nov 12, 2026", "12 нояб. 2026 г.", "2026年11月12日". */
export function formatDate(iso: string, locale: Locale): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return formatter('date', locale, { dateStyle: 'medium' }).format(date);
}

/**
 * A calendar day (`YYYY-MM-DD`, no time of day) in the interface language, e.g. "Nov 12, 2026":
 * the same day wherever the reader is (a shared moment's date in the memories).
 */
export function formatDay(day: string, locale: Locale): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(date.getTime())) return '';
  return formatter('date', locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
}

/** A time of day in the interface language, e.g. "4:05 PM", "16:05". */
export function formatTime(iso: string, locale: Locale): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return formatter('date', locale, { timeStyle: 'short' }).format(date);
}

const RELATIVE_STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.345],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/**
 * How long ago (or until) a moment is, in words: "5 minutes ago", "через 2 дня", "昨天"; under a
 * minute "now". `short` abbreviates the units ("5 min. ago"), as lists of chats do.
 */
export function formatRelative(
  iso: string,
  locale: Locale,
  now: number = Date.now(),
  style: 'long' | 'short' = 'long',
): string {
  const time = new Date(iso).getTime();
  if (Number.isNaN(time)) return '';
  let amount = (time - now) / 1000;
  const format = formatter('relative', locale, { numeric: 'auto', style });
  if (Math.abs(amount) < 60) return format.format(0, 'second');
  for (const [unit, size] of RELATIVE_STEPS) {
    if (Math.abs(amount) < size) return format.format(Math.round(amount), unit);
    amount /= size;
  }
  return '';
}

/** `hh:mm:ss` until the given time (never negative). */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return [h, m, s].map((n) => String(n).padStart(2, '0')).join(':');
}

/** A date and time in the interface language, e.g. "Nov 12, 2026, 4:05 PM". */
export function formatDateTime(iso: string, locale: Locale): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return formatter('date', locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** A file's size in the interface language, e.g. "1.2 MB". */
export function formatBytes(bytes: number, locale: Locale): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return formatter('number', locale, {
    style: 'unit',
    unit: units[unit],
    unitDisplay: 'short',
    maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(value);
}
