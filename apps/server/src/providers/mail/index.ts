import type { Edition } from '@reverie/shared';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { JobQueue } from '../jobs/index.js';
import type { MailProvider } from './mail.provider.js';
import { OutboxMailProvider } from './outbox.provider.js';
import { QueuedMailProvider, type QueuedMailOptions } from './queued.provider.js';
import { SmtpMailProvider } from './smtp.provider.js';

export type { MailMessage, MailProvider } from './mail.provider.js';
export { MAIL_QUEUE, QueuedMailProvider } from './queued.provider.js';

/**
 * SMTP when `SMTP_URL` is set, sent from the job queue (`mail` jobs, retried; never lost on a
 * restart); otherwise the local outbox, written directly (it is a row in the same database).
 */
export function createMailProvider(
  config: Config,
  db: Database,
  edition: Edition,
  jobs: JobQueue,
  options: QueuedMailOptions = {},
): MailProvider {
  if (config.SMTP_URL) {
    const from = config.MAIL_FROM ?? `${edition.name} <no-reply@${edition.domain}>`;
    return new QueuedMailProvider(jobs, new SmtpMailProvider(config.SMTP_URL, from), options);
  }
  return new OutboxMailProvider(db);
}
