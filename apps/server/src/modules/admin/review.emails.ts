import type { Edition, Locale } from '@reverie/shared';
import { translate } from '../../lib/i18n.js';
import type { RenderedEmail } from '../../lib/email-layout.js';
import { renderNoticeEmail } from '../../lib/notice-email.js';

/**
 * The e-mail telling an author what an administrator decided about their character, in the
 * author's language: rejected from the review (`character_rejected`) or taken out of public view
 * (`character_unpublished`). It names the character, quotes the administrator's reason as written
 * and links to the character, where the author sees the reason and can edit it (which sends it
 * back to the review queue).
 */
export function renderCharacterDecisionEmail(options: {
  kind: CharacterDecision;
  locale: Locale;
  edition: Edition;
  name: string;
  character: string;
  reason: string;
  actionUrl: string;
}): RenderedEmail {
  const { locale, kind } = options;
  return renderNoticeEmail({
    kind,
    locale,
    edition: options.edition,
    vars: { name: options.name, character: options.character },
    quote: options.reason,
    quoteLabel: translate(locale, `email.${kind}.reason`),
    action: { label: translate(locale, `email.${kind}.button`), url: options.actionUrl },
    greetingKey: 'common.greeting',
    footerKey: 'common.footer',
  });
}

/** The decisions about a character its author is told of by e-mail. */
export type CharacterDecision = 'character_rejected' | 'character_unpublished';
