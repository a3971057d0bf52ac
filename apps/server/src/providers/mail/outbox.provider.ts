import type { Database } from '../../db/client.js';
import { mailOutbox } from '../../db/schema.js';
import type { MailMessage, MailProvider } from './mail.provider.js';

/** The embedded default: mail is kept in the database and shown at /dev/mailbox. */
export class OutboxMailProvider implements MailProvider {
  readonly name = 'outbox';

  constructor(private readonly db: Database) {}

  async send(message: MailMessage): Promise<void> {
    await this.db.insert(mailOutbox).values({
      userId: message.userId,
      toAddress: message.to,
      kind: message.kind,
      subject: message.subject,
      html: message.html,
      text: message.text,
      headers: message.headers,
    });
  }
}
