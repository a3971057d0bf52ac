import type { Edition, Locale } from '@reverie/shared';
import { emailButton, renderEmailLayout, type EmailBlock, type RenderedEmail } from './email-layout.js';
import { escapeHtml } from './html.js';
import { hasTranslation, translate } from './i18n.js';
import { mailSafe } from './templates.js';

const NO_BLOCK: EmailBlock = { text: [], html: '' };

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
}): RenderedEmail {
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
  const quoteBlock: EmailBlock = quote
    ? {
        text: [...(quoteLabel ? [`${quoteLabel}:`] : []), ...quote.map((line) => `> ${line}`), ''],
        html: `<tr><td style="font-size:15px;line-height:1.6;color:#ffffff;padding:12px 16px;border-left:3px solid ${edition.colors.primary};background:rgba(255,255,255,.04)">${quoteLabel ? `<strong>${escapeHtml(quoteLabel)}:</strong><br>` : ''}${quote.map(escapeHtml).join('<br>')}</td></tr>`,
      }
    : NO_BLOCK;
  const closingBlock: EmailBlock = closing
    ? {
        text: [closing, ''],
        html: `<tr><td style="font-size:14px;line-height:1.6;color:#d9d3e6;padding-top:16px">${escapeHtml(closing)}</td></tr>`,
      }
    : NO_BLOCK;
  return renderEmailLayout({
    locale,
    edition,
    subject,
    greeting,
    heading,
    body,
    bodyPadding: '16px',
    blocks: [quoteBlock, closingBlock, action ? emailButton(edition, action, 'padding:24px 0') : NO_BLOCK],
    footer,
    support: t('common.support'),
    footerMargin: true,
  });
}
