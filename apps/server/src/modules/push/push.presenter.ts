import type { Locale, PushPayload } from '@reverie/shared';
import { translate } from '../../lib/i18n.js';
import type { PushNotice } from './push.service.js';

/** At most this many characters of a message show in a notification (its first words). */
export const PREVIEW_CHARS = 90;

/** The first words of a text: whitespace collapsed, cut at a word boundary, with an ellipsis. */
export function firstWords(text: string, max = PREVIEW_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:!?-]+$/, '')}…`;
}

/**
 * What a notice shows on a lock screen: the character's name and picture and the message's
 * first words — a fixed "sent you a picture" for a picture, "answered you" for a finished
 * chat reply, a fixed "wrote to you" for an explicit message or when the user hides previews
 * (never explicit text or pictures).
 */
export function presentPayload(
  notice: PushNotice,
  choices: { preview: boolean; locale: Locale },
  unread: number,
): PushPayload {
  const name = notice.character.name;
  const t = (key: string) => translate(choices.locale, key, { name });
  let body: string;
  if (!choices.preview) body = t('push.new_message');
  else if (notice.kind === 'picture') body = t('push.sent_picture');
  // A chat reply is not judged for explicitness: only that she answered, never its words.
  else if (notice.reason === 'reply') body = t('push.replied');
  else if (notice.explicit) body = t('push.new_message');
  else body = firstWords(notice.text) || t('push.new_message');
  return {
    title: name,
    body,
    icon: choices.preview ? notice.character.picture : null,
    url: `/${notice.character.slug}?chat=${encodeURIComponent(notice.chatId)}`,
    tag: `chat-${notice.chatId}`,
    chat_id: notice.chatId,
    unread,
    off_label: t('push.turn_off'),
  };
}
