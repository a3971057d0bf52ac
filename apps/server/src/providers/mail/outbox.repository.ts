import type { Database } from '../../db/client.js';
import { mailOutbox } from '../../db/schema.js';
import type { MailMessage } from './mail.provider.js';

/** Keeps a message in the outbox (`mail_outbox`), read at /dev/mailbox. */
export async function insertOutboxMail(db: Database, message: MailMessage): Promise<void> {
  await db.insert(mailOutbox).values({
    userId: message.userId,
    toAddress: message.to,
    kind: message.kind,
    subject: message.subject,
    html: message.html,
    text: message.text,
    headers: message.headers,
  });
}
