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
export function formatMessageTime(iso: string, language: string, now?: Date): string {
  if (now) return formatAt(iso, language, now);
  // Each message's text is made once a day (a long chat renders its rows again and again).
  const at = Date.now();
  if (at >= textsUntil || texts.size > 20_000) {
    texts.clear();
    const today = new Date(at);
    textsUntil = new Date(today.getFullYear(), today.getMonth(), today.getDate() + 1).getTime();
  }
  const key = `${language}|${iso}`;
  let text = texts.get(key);
  if (text === undefined) {
    text = formatAt(iso, language, new Date(at));
    texts.set(key, text);
  }
  return text;
}

/** The texts made today, by language and date; forgotten at midnight. */
const texts = new Map<string, string>();
let textsUntil = 0;

function formatAt(iso: string, language: string, now: Date): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const locale = toLocale(language);
  const tag = locale ? LOCALE_HTML_LANG[locale] : language;
  const today = sameDay(date, now);
  return formatter(tag, !today, date.getFullYear() !== now.getFullYear()).format(date);
}

const fullFormats = new Map<string, Intl.DateTimeFormat>();

/** The full date and time, for the tooltip (one formatter per language: making one is costly). */
export function formatMessageDateTime(iso: string, language: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const locale = toLocale(language);
  const tag = locale ? LOCALE_HTML_LANG[locale] : language;
  let format = fullFormats.get(tag);
  if (!format) {
    format = new Intl.DateTimeFormat(tag, { dateStyle: 'full', timeStyle: 'short' });
    fullFormats.set(tag, format);
  }
  return format.format(date);
}

/**
 * Makes the message times' formatters of `language` ahead, each used once: the first `Intl`
 * formatter of a page costs ≈ 40–90 ms of a phone's CPU (the language's data read once), which
 * the chat's first render would otherwise pay. The chat's opening calls it while its requests
 * are on the network (`features/chat/api/opening.ts`).
 */
export function warmMessageTimes(language: string): void {
  const locale = toLocale(language);
  const tag = locale ? LOCALE_HTML_LANG[locale] : language;
  const now = new Date();
  for (const [withDate, withYear] of [
    [false, false],
    [true, false],
    [true, true],
  ] as const)
    formatter(tag, withDate, withYear).format(now);
}
