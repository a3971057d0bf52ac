import type { Edition, Locale } from '@reverie/shared';
import { LOCALE_HTML_LANG } from '@reverie/shared';
import { emailButton, renderEmailLayout, type RenderedEmail } from '../../lib/email-layout.js';
import { escapeHtml } from '../../lib/html.js';
import { translate } from '../../lib/i18n.js';
import { mailSafe } from '../../lib/templates.js';

/** "Your data is ready to download": the signed link and until when it works, in the user's language. */
export function renderReadyEmail(options: {
  edition: Edition;
  locale: Locale;
  name: string;
  url: string;
  settingsUrl: string;
  expiresAt: Date;
}): RenderedEmail {
  const { edition, locale } = options;
  // The reader's time zone is unknown here: UTC, said as such ("… 14:05 UTC").
  const until = new Intl.DateTimeFormat(LOCALE_HTML_LANG[locale], {
    dateStyle: 'long',
    timeStyle: 'long',
    timeZone: 'UTC',
  }).format(options.expiresAt);
  const vars = { app: edition.name, name: mailSafe(options.name), until, email: edition.supportEmail };
  const t = (key: string) => translate(locale, `email.${key}`, vars);
  const subject = mailSafe(t('data_export.subject'));
  return renderEmailLayout({
    locale,
    edition,
    subject,
    greeting: t('common.greeting'),
    heading: subject,
    body: t('data_export.body'),
    bodyPadding: '24px',
    blocks: [
      emailButton(edition, { label: t('data_export.button'), url: options.url }, 'padding-bottom:24px'),
      {
        text: [t('data_export.not_you'), options.settingsUrl, ''],
        html: `<tr><td style="font-size:13px;line-height:1.5;color:#a49cb8;padding-bottom:16px">${escapeHtml(t('data_export.not_you'))} <a href="${escapeHtml(options.settingsUrl)}" style="color:${edition.colors.secondary}">${escapeHtml(options.settingsUrl)}</a></td></tr>`,
      },
    ],
    footer: t('common.footer'),
    support: t('common.support'),
  });
}
