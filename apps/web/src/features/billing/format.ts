import { LOCALE_HTML_LANG, type Locale } from '@reverie/shared';

/** A price in integer cents as the interface language writes it ($1.99, 1,99 $, …); nothing is "$0". */
export function formatPrice(cents: number, currency: string, locale: Locale): string {
  return new Intl.NumberFormat(LOCALE_HTML_LANG[locale], {
    style: 'currency',
    currency: currency.toUpperCase(),
    ...(cents === 0 ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {}),
  }).format(cents / 100);
}

export function formatDate(iso: string, locale: Locale): string {
  return new Intl.DateTimeFormat(LOCALE_HTML_LANG[locale], { dateStyle: 'medium' }).format(new Date(iso));
}

/** `hh:mm:ss` until the given time (never negative). */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return [h, m, s].map((n) => String(n).padStart(2, '0')).join(':');
}
