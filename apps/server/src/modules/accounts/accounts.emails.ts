import type { Edition, Locale } from '@reverie/shared';
import { translate } from '../../lib/i18n.js';
import { mailSafe } from '../../lib/templates.js';

export type EmailKind = 'verify' | 'reset' | 'welcome';

/** Marketing mail stops after an unsubscribe; account mail (verify, reset) always goes out. */
export const MARKETING_KINDS: ReadonlySet<EmailKind> = new Set(['welcome']);

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

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
  const heading = t(`${kind}.heading`);
  const body = t(`${kind}.body`);
  const button = t(`${kind}.button`);
  const note = kind === 'welcome' ? '' : t(`${kind}.ignore`);
  const greeting = t('common.greeting');
  const fallback = t('common.button_fallback');
  const footer = t('common.footer');
  const support = t('common.support');
  const unsubscribe = t('common.unsubscribe');
  const c = edition.colors;

  const text = [
    greeting,
    '',
    heading,
    '',
    body,
    '',
    `${button}: ${options.actionUrl}`,
    '',
    ...(note ? [note, ''] : []),
    '—',
    footer,
    support,
    `${unsubscribe}: ${options.unsubscribeUrl}`,
  ].join('\n');

  const e = escapeHtml;
  const html = `<!doctype html>
<html lang="${locale === 'ch' ? 'zh-CN' : locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${e(subject)}</title></head>
<body style="margin:0;padding:0;background:${c.background};font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#f4f1fa">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${c.background};padding:24px 12px"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:${c.surface};border-radius:20px;padding:32px">
<tr><td style="font-size:22px;font-weight:700;color:${c.primary};padding-bottom:24px">${e(edition.name)}</td></tr>
<tr><td style="font-size:15px;line-height:1.6;color:#d9d3e6">${e(greeting)}</td></tr>
<tr><td style="font-size:22px;font-weight:600;padding:12px 0;color:#ffffff">${e(heading)}</td></tr>
<tr><td style="font-size:15px;line-height:1.6;color:#d9d3e6;padding-bottom:24px">${e(body)}</td></tr>
<tr><td align="left" style="padding-bottom:24px"><a href="${e(options.actionUrl)}" style="display:inline-block;background:${c.primary};color:${c.onPrimary};text-decoration:none;font-weight:600;padding:12px 28px;border-radius:999px">${e(button)}</a></td></tr>
<tr><td style="font-size:12px;line-height:1.5;color:#a49cb8;padding-bottom:16px">${e(fallback)}<br><a href="${e(options.actionUrl)}" style="color:${c.secondary};word-break:break-all">${e(options.actionUrl)}</a></td></tr>
${note ? `<tr><td style="font-size:13px;line-height:1.5;color:#a49cb8;padding-bottom:16px">${e(note)}</td></tr>` : ''}
<tr><td style="border-top:1px solid rgba(255,255,255,.1);padding-top:16px;font-size:12px;line-height:1.5;color:#8f88a3">${e(footer)}<br>${e(support)}<br><a href="${e(options.unsubscribeUrl)}" style="color:#8f88a3">${e(unsubscribe)}</a></td></tr>
</table></td></tr></table></body></html>`;
  return { subject, html, text };
}
