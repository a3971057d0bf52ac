import type { Edition } from '@reverie/shared';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { MailProvider } from './mail.provider.js';
import { OutboxMailProvider } from './outbox.provider.js';
import { SmtpMailProvider } from './smtp.provider.js';

export type { MailMessage, MailProvider } from './mail.provider.js';

/** SMTP when `SMTP_URL` is set, otherwise the local outbox. */
export function createMailProvider(config: Config, db: Database, edition: Edition): MailProvider {
  if (config.SMTP_URL) {
    const from = config.MAIL_FROM ?? `${edition.name} <no-reply@${edition.domain}>`;
    return new SmtpMailProvider(config.SMTP_URL, from);
  }
  return new OutboxMailProvider(db);
}
