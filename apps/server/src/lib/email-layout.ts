import { LOCALE_HTML_LANG, type Edition, type Locale } from '@reverie/shared';
import { escapeHtml as e } from './html.js';

/** A rendered e-mail: subject, HTML and text bodies. */
export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

/**
 * One part of a mail between its body and its footer: the lines it adds to the text body
 * (with the blank line that follows it) and its HTML table row; an absent part is `{ text: [], html: '' }`.
 */
export interface EmailBlock {
  text: string[];
  html: string;
}

/** A block for a button to one address: `label: url` in the text, a pill-shaped link in the HTML. */
export function emailButton(edition: Edition, button: { label: string; url: string }, padding: string): EmailBlock {
  const c = edition.colors;
  return {
    text: [`${button.label}: ${button.url}`, ''],
    html: `<tr><td align="left" style="${padding}"><a href="${e(button.url)}" style="display:inline-block;background:${c.primary};color:${c.onPrimary};text-decoration:none;font-weight:600;padding:12px 28px;border-radius:999px">${e(button.label)}</a></td></tr>`,
  };
}

/**
 * The one layout of every mail the server sends, branded for the edition: a text body
 * (greeting, heading, body, the blocks, then `—`, footer, support line and an optional
 * unsubscribe line) and an HTML body with the same parts (inline styles and a table layout,
 * which mail clients need). Every value is text; the layout escapes it, except the blocks'
 * HTML, which their builders escape.
 */
export function renderEmailLayout(mail: {
  locale: Locale;
  edition: Edition;
  subject: string;
  greeting: string;
  heading: string;
  body: string;
  /** Space under the body: more when a button follows at once. */
  bodyPadding: '16px' | '24px';
  blocks: EmailBlock[];
  footer: string;
  support: string;
  unsubscribe?: { label: string; url: string };
  /** The notices' footer carries a `margin-top` too (no effect in a table cell), kept so no sent mail changes. */
  footerMargin?: boolean;
}): RenderedEmail {
  const { edition, subject, greeting, heading, body, footer, support, unsubscribe } = mail;
  const c = edition.colors;

  const text = [
    greeting,
    '',
    heading,
    '',
    body,
    '',
    ...mail.blocks.flatMap((block) => block.text),
    '—',
    footer,
    support,
    ...(unsubscribe ? [`${unsubscribe.label}: ${unsubscribe.url}`] : []),
  ].join('\n');

  const footerStyle = `border-top:1px solid rgba(255,255,255,.1);${mail.footerMargin ? 'margin-top:16px;' : ''}padding-top:16px;font-size:12px;line-height:1.5;color:#8f88a3`;
  const unsubscribeLink = unsubscribe
    ? `<br><a href="${e(unsubscribe.url)}" style="color:#8f88a3">${e(unsubscribe.label)}</a>`
    : '';
  const rows = [
    `<tr><td style="font-size:22px;font-weight:700;color:${c.primary};padding-bottom:24px">${e(edition.name)}</td></tr>`,
    `<tr><td style="font-size:15px;line-height:1.6;color:#d9d3e6">${e(greeting)}</td></tr>`,
    `<tr><td style="font-size:22px;font-weight:600;padding:12px 0;color:#ffffff">${e(heading)}</td></tr>`,
    `<tr><td style="font-size:15px;line-height:1.6;color:#d9d3e6;padding-bottom:${mail.bodyPadding}">${e(body)}</td></tr>`,
    ...mail.blocks.map((block) => block.html),
    `<tr><td style="${footerStyle}">${e(footer)}<br>${e(support)}${unsubscribeLink}</td></tr>`,
  ];
  const html = `<!doctype html>
<html lang="${LOCALE_HTML_LANG[mail.locale]}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${e(subject)}</title></head>
<body style="margin:0;padding:0;background:${c.background};font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#f4f1fa">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${c.background};padding:24px 12px"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:${c.surface};border-radius:20px;padding:32px">
${rows.join('\n')}
</table></td></tr></table></body></html>`;
  return { subject, html, text };
}
