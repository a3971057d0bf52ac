import { getEdition, LOCALES } from '@reverie/shared';
import { describe, expect, it } from 'vitest';
import { renderEmail } from '../src/modules/accounts/accounts.emails.js';
import { renderCharacterDecisionEmail } from '../src/modules/admin/review.emails.js';
import { renderEmailLayout } from '../src/lib/email-layout.js';
import { renderNoticeEmail } from '../src/lib/notice-email.js';

const edition = getEdition('reverie');

/**
 * What the layout draws, whatever the words: the document and table frame, the name, greeting
 * and heading rows, the footer row's rule and the closing tags (the words left out).
 */
const layoutOf = (html: string) => {
  const lines = html
    .replace(/<title>.*<\/title>/, '')
    .replace(/>[^<\n]+</g, '><')
    .split('\n');
  const footer = lines.at(-2)!;
  return [...lines.slice(0, 8), footer.slice(0, footer.indexOf(';')), lines.at(-1)];
};

describe('one e-mail layout', () => {
  it('draws the account mails, the notices and the review decisions, in every language', () => {
    const mails = LOCALES.flatMap((locale) => [
      ...(['verify', 'reset', 'welcome'] as const).map((kind) =>
        renderEmail({
          kind,
          locale,
          edition,
          name: 'Ann',
          actionUrl: 'https://app.test/verify?token=t',
          unsubscribeUrl: 'https://app.test/unsubscribe?token=u',
        }),
      ),
      ...['takedown_received', 'takedown_removed', 'takedown_rejected', 'support_answer'].map((kind) =>
        renderNoticeEmail({
          kind,
          locale,
          edition,
          quote: 'Not ours.',
          action: { label: 'Open', url: 'https://a.test' },
        }),
      ),
      ...(['character_rejected', 'character_unpublished'] as const).map((kind) =>
        renderCharacterDecisionEmail({
          kind,
          locale,
          edition,
          name: 'Ann',
          character: 'Mira',
          reason: 'Too short.',
          actionUrl: 'https://app.test/mira',
        }),
      ),
    ]);
    const layout = (locale: string) =>
      layoutOf(
        renderEmailLayout({
          locale: locale as (typeof LOCALES)[number],
          edition,
          subject: 's',
          greeting: 'g',
          heading: 'h',
          body: 'b',
          bodyPadding: '16px',
          blocks: [],
          footer: 'f',
          support: 's',
        }).html,
      );
    for (const [index, mail] of mails.entries()) {
      const locale = LOCALES[Math.floor(index / 9)]!;
      expect(layoutOf(mail.html)).toEqual(layout(locale));
      expect(mail.text).toMatch(/\n—\n[^\n]+\n[^\n]+(\n[^\n]+: https:\/\/\S+)?$/);
    }
  });

  it('keeps the text bodies as they were', () => {
    const account = renderEmail({
      kind: 'reset',
      locale: 'en',
      edition,
      name: 'Ann',
      actionUrl: 'https://app.test/reset',
      unsubscribeUrl: 'https://app.test/unsubscribe',
      vars: { minutes: 30 },
    });
    const notice = renderNoticeEmail({
      kind: 'support_answer',
      locale: 'en',
      edition,
      vars: { subject: 'My character' },
      quote: 'First line\n\nSecond <line>',
      quoteLabel: 'Answer',
      action: { label: 'Open', url: 'https://app.test/support' },
    });
    expect(account.text).toMatchInlineSnapshot(`
      "Hi Ann,

      Reset your password

      We received a request to reset your password. The link is valid for 30 minutes and works only once.

      Set a new password: https://app.test/reset

      If you did not ask for this, ignore this e-mail: your password stays the same.

      —
      You receive this e-mail because you have an account at Reverie.
      Questions? Write to us at support@reverie.chat.
      Unsubscribe from news and offers: https://app.test/unsubscribe"
    `);
    expect(notice.text).toMatchInlineSnapshot(`
      "Hello,

      An answer from Reverie support

      You wrote to us about “My character”. Here is our answer:

      Answer:
      > First line
      > 
      > Second <line>

      Open: https://app.test/support

      —
      You receive this e-mail because of a request sent to Reverie.
      Questions? Write to us at support@reverie.chat."
    `);
  });
});
