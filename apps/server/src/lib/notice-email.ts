import type { Edition, Locale } from '@reverie/shared';
import { hasTranslation, translate } from './i18n.js';
import { mailSafe } from './templates.js';

/** A rendered notice e-mail: subject, HTML and text bodies. */
export interface NoticeEmail {
  subject: string;
  html: string;
  text: string;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Lines of a free text (an administrator's answer), each made mail-safe, empty lines kept. */
const safeLines = (value: string) => value.split(/\r?\n/).map((line) => mailSafe(line));

/**
 * A notice (takedown acknowledgements and outcomes, support answers, a rejected character), in
 * the recipient's language, branded for the edition: `email.<kind>.subject`, `.heading`, `.body`
 * (placeholders from `vars`), then an optional quoted block (the administrator's words, as
 * written, under `quoteLabel` when given), `email.<kind>.after` when the locale has it, and an
 * optional button (`action`). The greeting and footer are `email.notice.*` unless named.
 */
export function renderNoticeEmail(options: {
  kind: string;
  locale: Locale;
  edition: Edition;
  vars?: Record<string, string>;
  quote?: string | null;
  quoteLabel?: string;
  action?: { label: string; url: string };
  greetingKey?: string;
  footerKey?: string;
}): NoticeEmail {
  const { kind, locale, edition } = options;
  const vars = Object.fromEntries(
    Object.entries({ app: edition.name, email: edition.supportEmail, ...options.vars }).map(([key, value]) => [
      key,
      mailSafe(value),
    ]),
  );
  const t = (key: string) => translate(locale, `email.${key}`, vars);
  const subject = mailSafe(t(`${kind}.subject`));
  const heading = t(`${kind}.heading`);
  const body = t(`${kind}.body`);
  const afterKey = `email.${kind}.after`;
  const closing = hasTranslation(afterKey) ? translate(locale, afterKey, vars) : '';
  const quote = options.quote?.trim() ? safeLines(options.quote.trim()) : null;
  const greeting = t(options.greetingKey ?? 'notice.greeting');
  const footer = t(options.footerKey ?? 'notice.footer');
  const quoteLabel = options.quoteLabel ? mailSafe(options.quoteLabel) : null;
  const action = options.action ?? null;
  const support = t('common.support');
  const c = edition.colors;

  const text = [
    greeting,
    '',
    heading,
    '',
    body,
    '',
    ...(quote ? [...(quoteLabel ? [`${quoteLabel}:`] : []), ...quote.map((line) => `> ${line}`), ''] : []),
    ...(closing ? [closing, ''] : []),
    ...(action ? [`${action.label}: ${action.url}`, ''] : []),
    '—',
    footer,
    support,
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
<tr><td style="font-size:15px;line-height:1.6;color:#d9d3e6;padding-bottom:16px">${e(body)}</td></tr>
${quote ? `<tr><td style="font-size:15px;line-height:1.6;color:#ffffff;padding:12px 16px;border-left:3px solid ${c.primary};background:rgba(255,255,255,.04)">${quoteLabel ? `<strong>${e(quoteLabel)}:</strong><br>` : ''}${quote.map(e).join('<br>')}</td></tr>` : ''}
${closing ? `<tr><td style="font-size:14px;line-height:1.6;color:#d9d3e6;padding-top:16px">${e(closing)}</td></tr>` : ''}
${action ? `<tr><td align="left" style="padding:24px 0"><a href="${e(action.url)}" style="display:inline-block;background:${c.primary};color:${c.onPrimary};text-decoration:none;font-weight:600;padding:12px 28px;border-radius:999px">${e(action.label)}</a></td></tr>` : ''}
<tr><td style="border-top:1px solid rgba(255,255,255,.1);margin-top:16px;padding-top:16px;font-size:12px;line-height:1.5;color:#8f88a3">${e(footer)}<br>${e(support)}</td></tr>
</table></td></tr></table></body></html>`;
  return { subject, html, text };
}
