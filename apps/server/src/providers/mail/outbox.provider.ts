import type { Database } from '../../db/client.js';
import { insertOutboxMail } from './outbox.repository.js';
import type { MailMessage, MailProvider } from './mail.provider.js';

/** The embedded default: mail is kept in the database and shown at /dev/mailbox. */
export class OutboxMailProvider implements MailProvider {
  readonly name = 'outbox';

  constructor(private readonly db: Database) {}

  async send(message: MailMessage): Promise<void> {
    await insertOutboxMail(this.db, message);
  }
}
