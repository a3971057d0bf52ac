import type { Edition, Locale } from '@reverie/shared';
import { translate } from '../../lib/i18n.js';
import { renderNoticeEmail, type NoticeEmail } from '../../lib/notice-email.js';

/**
 * The e-mail telling an author that an administrator rejected their public character, in
 * the author's language: the character's name, the administrator's reason (as written) and a
 * link to the character, where the author sees the reason and can edit it (which sends it
 * back to the review queue).
 */
export function renderRejectionEmail(options: {
  locale: Locale;
  edition: Edition;
  name: string;
  character: string;
  reason: string;
  actionUrl: string;
}): NoticeEmail {
  const { locale } = options;
  return renderNoticeEmail({
    kind: 'character_rejected',
    locale,
    edition: options.edition,
    vars: { name: options.name, character: options.character },
    quote: options.reason,
    quoteLabel: translate(locale, 'email.character_rejected.reason'),
    action: { label: translate(locale, 'email.character_rejected.button'), url: options.actionUrl },
    greetingKey: 'common.greeting',
    footerKey: 'common.footer',
  });
}
