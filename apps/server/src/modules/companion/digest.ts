import type { Edition, Locale } from '@reverie/shared';
import { LOCALES } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { emailButton, renderEmailLayout } from '../../lib/email-layout.js';
import { escapeHtml as escape } from '../../lib/html.js';
import { translate } from '../../lib/i18n.js';
import type { ServiceLog } from '../../lib/logger.js';
import { mailSafe } from '../../lib/templates.js';
import type { MailProvider } from '../../providers/mail/mail.provider.js';
import { dueDigests, markDigestSent, type DigestRow } from './companion.repository.js';

export interface DigestDeps {
  db: Database;
  mail: MailProvider;
  edition: Edition;
  publicUrl: string;
  log: Pick<ServiceLog, 'warn'>;
  /** The accounts module's signed unsubscribe token (RFC 8058 one-click: it stops this digest too). */
  unsubscribeToken(userId: string): string;
  now?: () => Date;
}

const toLocale = (value: string): Locale => ((LOCALES as readonly string[]).includes(value) ? (value as Locale) : 'en');

/**
 * The e-mail digest (docs/companion.md "E-mail digest"): "Mia wrote to you", at most one a day
 * per user, only to a verified address of an account that chose it and has not unsubscribed,
 * through the mail provider (SMTP: the durable `mail` jobs). One round sends every digest due.
 */
export async function sendDigests(deps: DigestDeps, limit = 500): Promise<number> {
  const now = deps.now?.() ?? new Date();
  let sent = 0;
  for (;;) {
    const due = await dueDigests(deps.db, now, limit);
    for (const row of due) {
      // Claimed first: another replica's round (or a retry) never sends it twice.
      if (!(await markDigestSent(deps.db, row.userId, now))) continue;
      if (row.characters.length === 0) continue; // the messages were deleted meanwhile
      try {
        await deps.mail.send({ ...renderDigest(deps, row), to: mailSafe(row.email), userId: row.userId });
        sent++;
      } catch (error) {
        deps.log.warn({ err: error }, 'a companion digest could not be sent');
      }
    }
    if (due.length < limit) return sent;
  }
}

export function renderDigest(deps: Pick<DigestDeps, 'edition' | 'publicUrl' | 'unsubscribeToken'>, row: DigestRow) {
  const locale = toLocale(row.locale);
  const { edition } = deps;
  const token = encodeURIComponent(deps.unsubscribeToken(row.userId));
  const link = (path: string) => new URL(path, deps.publicUrl).toString();
  const [first, ...others] = row.characters.map(mailSafe);
  const vars = {
    app: edition.name,
    name: mailSafe(row.name),
    character: first!,
    others: others.join(', '),
    email: edition.supportEmail,
  };
  const t = (key: string) => translate(locale, `email.${key}`, vars);
  const subject = mailSafe(t('companion_digest.subject'));
  const rendered = renderEmailLayout({
    locale,
    edition,
    subject,
    greeting: t('common.greeting'),
    heading: subject,
    body: others.length ? t('companion_digest.body_several') : t('companion_digest.body'),
    bodyPadding: '24px',
    blocks: [
      emailButton(edition, { label: t('companion_digest.button'), url: link('/chat') }, 'padding-bottom:24px'),
      {
        text: [t('companion_digest.turn_off'), link('/settings#companion'), ''],
        html: `<tr><td style="font-size:13px;line-height:1.5;color:#a49cb8;padding-bottom:16px">${escape(t('companion_digest.turn_off'))} <a href="${escape(link('/settings#companion'))}" style="color:${edition.colors.secondary}">${escape(link('/settings#companion'))}</a></td></tr>`,
      },
    ],
    footer: t('common.footer'),
    support: t('common.support'),
    unsubscribe: { label: t('companion_digest.unsubscribe'), url: link(`/email/unsubscribe?token=${token}`) },
  });
  return {
    ...rendered,
    kind: 'companion_digest',
    headers: {
      'List-Unsubscribe': `<${link(`/api/email/unsubscribe?token=${token}`)}>, <mailto:${edition.supportEmail}?subject=unsubscribe>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
