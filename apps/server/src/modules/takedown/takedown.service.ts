import { createHash, randomInt } from 'node:crypto';
import {
  TAKEDOWN_DEADLINE_HOURS,
  TAKEDOWN_REFERENCE_ALPHABET,
  takedownBodySchema,
  type Edition,
  type Locale,
  type TakedownBody,
} from '@reverie/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import { translate } from '../../lib/i18n.js';
import { renderNoticeEmail } from '../../lib/notice-email.js';
import type { MailProvider } from '../../providers/mail/mail.provider.js';
import type { WindowLimiter } from '../../providers/limits/index.js';
import { insertTakedownRequest } from './takedown.repository.js';

export interface TakedownDeps {
  db: Database;
  mail: MailProvider;
  edition: Edition;
  /** The site's address: links must be to it. */
  publicUrl: string;
  log: FastifyBaseLogger;
  /** Requests (acknowledgements sent) per reporter e-mail, counted for the cluster; none: no limit. */
  perEmail?: WindowLimiter;
}

/** `TD-` and 8 characters without look-alikes. */
export function newTakedownReference(): string {
  let out = 'TD-';
  for (let i = 0; i < 8; i++) out += TAKEDOWN_REFERENCE_ALPHABET[randomInt(TAKEDOWN_REFERENCE_ALPHABET.length)];
  return out;
}

/**
 * Takes a takedown request (anyone, signed in or not): checks the links are to this site,
 * stores it under a new reference and hands the acknowledgement, in the request's language,
 * to the mail provider before answering: the provider keeps it durably (the mail queue's job,
 * or the outbox row), so a process killed right after the answer cannot lose it. A failure to
 * hand it over is logged; the request is kept (the console shows it with its clock).
 */
export class TakedownService {
  constructor(private readonly deps: TakedownDeps) {}

  async create(body: TakedownBody, locale: Locale): Promise<{ reference: string }> {
    await this.countReporter(body.email);
    const checked = takedownBodySchema(this.deps.publicUrl).safeParse(body);
    if (!checked.success) {
      const errors: Record<string, string[]> = {};
      for (const issue of checked.error.issues) {
        const field = issue.path.join('.') || '_';
        (errors[field] ??= []).push(translate(locale, `validation.${issue.message}`));
      }
      throw new AppError('validation_error', { status: 400, errors });
    }
    const value = checked.data;
    const items = [...value.urls, ...value.message_ids.map((id) => id.toLowerCase())].filter(Boolean);
    let row = null;
    for (let attempt = 0; attempt < 5 && !row; attempt++) {
      row = await insertTakedownRequest(this.deps.db, {
        reference: newTakedownReference(),
        email: value.email,
        items: [...new Set(items)],
        description: value.description,
        signature: value.signature,
        locale,
      });
    }
    if (!row) throw new AppError('something_went_wrong', { status: 500 });
    await this.acknowledge(row.email, row.reference, locale, row.items.length);
    return { reference: row.reference };
  }

  /** It sends e-mail: counted per address of the recipient too (a hash, no address stored). */
  private async countReporter(email: string): Promise<void> {
    if (!this.deps.perEmail) return;
    const id = createHash('sha256').update(email.toLowerCase()).digest('hex');
    const wait = await this.deps.perEmail.take(id);
    if (wait > 0)
      throw new AppError('rate_limited', { status: 429, headers: { 'retry-after': String(Math.max(1, wait)) } });
  }

  private async acknowledge(to: string, reference: string, locale: Locale, count: number): Promise<void> {
    const email = renderNoticeEmail({
      kind: 'takedown_received',
      locale,
      edition: this.deps.edition,
      vars: { reference, hours: String(TAKEDOWN_DEADLINE_HOURS), count: String(count) },
    });
    try {
      await this.deps.mail.send({ to, ...email, headers: {}, kind: 'takedown_received', userId: null });
    } catch (error) {
      this.deps.log.error({ err: error, reference }, 'takedown acknowledgement could not be queued');
    }
  }
}
