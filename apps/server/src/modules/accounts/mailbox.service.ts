import type { Database } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import { findMail, listLatestMails, type OutboxMailRow } from './mailbox.repository.js';

/** How many mails the local outbox shows. */
const SHOWN = 100;

/** The local outbox (development only): the mail the embedded default keeps in the database. */
export class MailboxService {
  constructor(private readonly deps: { db: Database }) {}

  /** The last mails, newest first. */
  latest(): Promise<OutboxMailRow[]> {
    return listLatestMails(this.deps.db, SHOWN);
  }

  /** One mail; 404 when there is none with that id. */
  async get(id: number): Promise<OutboxMailRow> {
    const mail = await findMail(this.deps.db, id);
    if (!mail) throw notFound();
    return mail;
  }
}
