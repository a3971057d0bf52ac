import type { Edition, Locale } from '@reverie/shared';
import { LOCALES } from '@reverie/shared';
import { translate } from '../../lib/i18n.js';
import { mailSafe } from '../../lib/templates.js';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The author's language if the site speaks it, else English. */
export const mailLocale = (locale: string | null | undefined): Locale =>
  (LOCALES as readonly string[]).includes(locale ?? '') ? (locale as Locale) : 'en';

/**
 * The e-mail telling an author that an administrator rejected their public character, in
 * the author's language: the character's name, the administrator's reason (as written) and a
 * link to the character, where the author sees the reason and can edit it (which sends it
 * back to the review queue). Built like the account e-mails (accounts.emails.ts).
 */
export function renderRejectionEmail(options: {
  locale: Locale;
  edition: Edition;
  name: string;
  character: string;
  reason: string;
  actionUrl: string;
}): { subject: string; html: string; text: string } {
  const { locale, edition } = options;
  const vars = {
    app: edition.name,
    email: edition.supportEmail,
    name: mailSafe(options.name),
    character: mailSafe(options.character),
  };
  const t = (key: string) => translate(locale, `email.${key}`, vars);
  const subject = mailSafe(t('character_rejected.subject'));
  const heading = t('character_rejected.heading');
  const body = t('character_rejected.body');
  const reasonLabel = t('character_rejected.reason');
  const button = t('character_rejected.button');
  const greeting = t('common.greeting');
  const footer = t('common.footer');
  const support = t('common.support');
  const text = [
    greeting,
    '',
    heading,
    '',
    body,
    '',
    `${reasonLabel}: ${options.reason}`,
    '',
    `${button}: ${options.actionUrl}`,
    '',
    '—',
    footer,
    support,
  ].join('\n');
  const e = escapeHtml;
  const c = edition.colors;
  const html = `<!doctype html>
<html lang="${locale === 'ch' ? 'zh-CN' : locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${e(subject)}</title></head>
<body style="margin:0;padding:0;background:${c.background};font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#f4f1fa">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${c.background};padding:24px 12px"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:${c.surface};border-radius:20px;padding:32px">
<tr><td style="font-size:22px;font-weight:700;color:${c.primary};padding-bottom:24px">${e(edition.name)}</td></tr>
<tr><td style="font-size:15px;line-height:1.6;color:#d9d3e6">${e(greeting)}</td></tr>
<tr><td style="font-size:22px;font-weight:600;padding:12px 0;color:#ffffff">${e(heading)}</td></tr>
<tr><td style="font-size:15px;line-height:1.6;color:#d9d3e6;padding-bottom:16px">${e(body)}</td></tr>
<tr><td style="font-size:15px;line-height:1.6;color:#ffffff;padding:12px 16px;background:rgba(255,255,255,.06);border-radius:12px;white-space:pre-wrap"><strong>${e(reasonLabel)}:</strong> ${e(options.reason)}</td></tr>
<tr><td align="left" style="padding:24px 0"><a href="${e(options.actionUrl)}" style="display:inline-block;background:${c.primary};color:${c.onPrimary};text-decoration:none;font-weight:600;padding:12px 28px;border-radius:999px">${e(button)}</a></td></tr>
<tr><td style="border-top:1px solid rgba(255,255,255,.1);padding-top:16px;font-size:12px;line-height:1.5;color:#8f88a3">${e(footer)}<br>${e(support)}</td></tr>
</table></td></tr></table></body></html>`;
  return { subject, html, text };
}
