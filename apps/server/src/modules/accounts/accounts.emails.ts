import type { Edition, Locale } from '@reverie/shared';
import { emailButton, renderEmailLayout, type RenderedEmail } from '../../lib/email-layout.js';
import { escapeHtml } from '../../lib/html.js';
import { translate } from '../../lib/i18n.js';
import { mailSafe } from '../../lib/templates.js';

export type EmailKind = 'verify' | 'reset' | 'welcome';

/** Marketing mail stops after an unsubscribe; account mail (verify, reset) always goes out. */
export const MARKETING_KINDS: ReadonlySet<EmailKind> = new Set(['welcome']);

/**
 * Renders one of the account e-mails in the user's language, branded for the edition:
 * a subject, an HTML body (inline styles, table layout for mail clients) and a text body.
 */
export function renderEmail(options: {
  kind: EmailKind;
  locale: Locale;
  edition: Edition;
  name: string;
  actionUrl: string;
  unsubscribeUrl: string;
  vars?: Record<string, string | number>;
}): RenderedEmail {
  const { kind, locale, edition } = options;
  // The user's name (and any other value) never carries CR/LF or other control characters.
  const vars = Object.fromEntries(
    Object.entries({ app: edition.name, name: options.name, email: edition.supportEmail, ...options.vars }).map(
      ([key, value]) => [key, typeof value === 'string' ? mailSafe(value) : value],
    ),
  );
  const t = (key: string) => translate(locale, `email.${key}`, vars);
  // A header: nothing but one line, whatever the translation holds.
  const subject = mailSafe(t(`${kind}.subject`));
  const note = kind === 'welcome' ? '' : t(`${kind}.ignore`);
  const { actionUrl } = options;
  return renderEmailLayout({
    locale,
    edition,
    subject,
    greeting: t('common.greeting'),
    heading: t(`${kind}.heading`),
    body: t(`${kind}.body`),
    bodyPadding: '24px',
    blocks: [
      emailButton(edition, { label: t(`${kind}.button`), url: actionUrl }, 'padding-bottom:24px'),
      {
        text: [],
        html: `<tr><td style="font-size:12px;line-height:1.5;color:#a49cb8;padding-bottom:16px">${escapeHtml(t('common.button_fallback'))}<br><a href="${escapeHtml(actionUrl)}" style="color:${edition.colors.secondary};word-break:break-all">${escapeHtml(actionUrl)}</a></td></tr>`,
      },
      note
        ? {
            text: [note, ''],
            html: `<tr><td style="font-size:13px;line-height:1.5;color:#a49cb8;padding-bottom:16px">${escapeHtml(note)}</td></tr>`,
          }
        : { text: [], html: '' },
    ],
    footer: t('common.footer'),
    support: t('common.support'),
    unsubscribe: { label: t('common.unsubscribe'), url: options.unsubscribeUrl },
  });
}
