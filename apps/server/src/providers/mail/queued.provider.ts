import type { JobQueue } from '../jobs/index.js';
import type { MailMessage, MailProvider } from './mail.provider.js';

/** The queue of outgoing e-mail (one job per message). */
export const MAIL_QUEUE = 'mail';

export interface QueuedMailOptions {
  /** Retries after the first attempt (default 6: with the default delay ½–1 h in all). */
  retryLimit?: number;
  /** Seconds before the first retry, then about twice as long each time (default 30). */
  retryDelaySeconds?: number;
  /** Seconds one attempt may take before it counts as failed (default 120). */
  expireInSeconds?: number;
  /** Messages sent at once by this process (default 2). */
  concurrency?: number;
  /** Where failures are told: the template kind only, never the address or the text. */
  log?: { warn(object: object, message?: string): void; error(object: object, message?: string): void };
}

/**
 * E-mail through the durable job queue (docs/accounts.md "E-mail"): `send` stores the
 * message as a job (in the database, so neither a restart nor a `kill -9` loses it) and
 * returns; whichever replica is free hands it to `transport` (SMTP), retried with growing
 * delays while the server refuses it or cannot be reached.
 */
export class QueuedMailProvider implements MailProvider {
  readonly name: string;

  constructor(
    private readonly jobs: JobQueue,
    private readonly transport: MailProvider,
    options: QueuedMailOptions = {},
  ) {
    this.name = transport.name;
    const log = options.log;
    jobs.work<MailMessage>(
      MAIL_QUEUE,
      async (message, _signal, job) => {
        try {
          await transport.send(message);
        } catch (error) {
          // nodemailer's error may quote the address: its code and SMTP reply code only.
          log?.warn({ job: job.id, kind: message.kind, code: smtpCode(error) }, 'sending e-mail failed; retrying');
          throw error;
        }
      },
      {
        concurrency: options.concurrency ?? 2,
        retryLimit: options.retryLimit ?? 6,
        retryDelaySeconds: options.retryDelaySeconds ?? 30,
        retryBackoff: true,
        expireInSeconds: options.expireInSeconds ?? 120,
        onFailed: async (message, job) => {
          log?.error({ job: job.id, kind: message.kind }, 'an e-mail could not be sent; retries used up');
        },
      },
    );
  }

  async send(message: MailMessage): Promise<void> {
    await this.jobs.send(MAIL_QUEUE, message);
  }

  async close(): Promise<void> {
    await this.transport.close?.();
  }
}

/** nodemailer's error code (`ECONNECTION`, `EENVELOPE`, …) and the server's reply code, nothing else. */
function smtpCode(error: unknown): string {
  if (error && typeof error === 'object') {
    const { code, responseCode } = error as { code?: unknown; responseCode?: unknown };
    const parts = [typeof code === 'string' ? code : null, typeof responseCode === 'number' ? responseCode : null];
    const text = parts.filter((p) => p !== null).join(' ');
    if (text) return text;
  }
  return 'unknown';
}
