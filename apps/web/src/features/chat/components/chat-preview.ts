import { MessageKind, type Chat } from '@reverie/shared';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "5 minutes ago", "yesterday", "3 weeks ago" in the interface language. */
export function relativeTime(iso: string, locale: string, now = Date.now()): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  const seconds = Math.round((time - now) / 1000);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'short' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  }
  return format.format(0, 'second');
}

/**
 * A chat's preview: its last real message (the server never sends a platform notice as
 * `last_message`; one from an older server is skipped here too), a picture by its caption.
 */
export function chatPreview(chat: Chat, t: (key: string) => string): { text: string; picture: boolean } {
  const last = chat.last_message;
  if (!last || last.role === 'system' || last.kind === MessageKind.Processed)
    return { text: t('chats.no_messages'), picture: false };
  if (last.kind === MessageKind.Image || last.kind === MessageKind.BlurImage)
    return { text: last.text || t('chats.picture'), picture: true };
  const text = last.role === 'user' ? `${t('chats.you')}: ${last.text}` : last.text;
  return { text, picture: false };
}
