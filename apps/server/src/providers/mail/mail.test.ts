import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getEdition } from '@reverie/shared';
import type { DatabaseHandle } from '../../db/client.js';
import { freePort } from '../../../test/fake-http.js';
import { createTestApp, createTestDatabase, testConfig } from '../../../test/helpers.js';
import { createJobQueue, type JobQueue } from '../jobs/index.js';
import { createMailProvider, type MailMessage } from './index.js';
import type { QueuedMailOptions } from './queued.provider.js';
import { OutboxMailProvider } from './outbox.provider.js';

/** A local SMTP server: refuses the first `refuse` messages with 451 (try later), keeps the others. */
function smtpServer(refuse = 0) {
  const received: { to: string[]; raw: string; at: number }[] = [];
  const refused: number[] = [];
  let left = refuse;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (left > 0) {
        left -= 1;
        refused.push(Date.now());
        callback(Object.assign(new Error('Mailbox busy, try later'), { responseCode: 451 }));
      } else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        });
        callback();
      });
    },
  });
  return {
    received,
    refused,
    listen: (port: number) => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const message = (to: string): MailMessage => ({
  to,
  subject: 'Welcome',
  html: '<p>Hello</p>',
  text: 'Hello',
  headers: { 'X-Test': '1' },
  kind: 'welcome',
  userId: null,
});

async function until(check: () => boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const edition = getEdition('Reverie');
let database: DatabaseHandle;
const queues: JobQueue[] = [];
const servers: { close(): Promise<void> }[] = [];

/** A "process": its own job queue on the shared database, with the SMTP provider registered. */
function startProcess(port: number, options: QueuedMailOptions = {}) {
  const jobs = createJobQueue(database, { pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1 });
  queues.push(jobs);
  const config = testConfig({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Reverie <no-reply@example.test>' });
  // Retries after 1 s, then 2–4 s (the defaults are 30 s, then about twice as long each time).
  const mail = createMailProvider(config, database.db, edition, jobs, { retryDelaySeconds: 1, ...options });
  return { jobs, mail };
}

function logLines() {
  const lines: string[] = [];
  const write = (object: object, msg?: string) => void lines.push(JSON.stringify({ ...object, msg }));
  return { lines, warn: write, error: write };
}

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  for (const jobs of queues) await jobs.stop().catch(() => undefined);
  for (const server of servers) await server.close();
});

describe('e-mail through the job queue (SMTP_URL set)', () => {
  it('send() only queues; a worker delivers the message once', async () => {
    const port = await freePort();
    const smtp = smtpServer();
    servers.push(smtp);
    await smtp.listen(port);
    const { jobs, mail } = startProcess(port);
    expect(mail.name).toBe('smtp');
    await mail.send(message('once@example.test'));
    await until(() => smtp.received.length === 1);
    await jobs.idle(['mail']);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.to).toEqual(['once@example.test']);
    expect(smtp.received[0]!.raw).toContain('Subject: Welcome');
    expect(smtp.received[0]!.raw).toContain('X-Test: 1');
    await jobs.stop();
  });

  it('retries with growing delays while the server refuses, then delivers once', async () => {
    const port = await freePort();
    const smtp = smtpServer(2);
    servers.push(smtp);
    await smtp.listen(port);
    const log = logLines();
    const { jobs, mail } = startProcess(port, { log });
    const queued = Date.now();
    await mail.send(message('busy@example.test'));
    await until(() => smtp.received.length === 1, 25_000);
    expect(smtp.refused).toHaveLength(2);
    expect(smtp.received).toHaveLength(1);
    const first = smtp.refused[0]! - queued;
    const gap1 = smtp.refused[1]! - smtp.refused[0]!;
    const gap2 = smtp.received[0]!.at - smtp.refused[1]!;
    expect(first).toBeLessThan(3000);
    expect(gap1).toBeGreaterThanOrEqual(900);
    expect(gap2).toBeGreaterThanOrEqual(1900);
    // The log says what failed, never to whom.
    expect(log.lines.length).toBeGreaterThanOrEqual(2);
    expect(log.lines.join('\n')).not.toContain('busy@example.test');
    await jobs.stop();
  }, 40_000);
});

describe('e-mail across restarts and failures', () => {
  it('a message queued by a process that stopped is sent by the next one', async () => {
    const port = await freePort();
    // Nothing listens yet: the first process fails to connect and stops.
    const first = startProcess(port, { retryDelaySeconds: 1 });
    await first.mail.send(message('later@example.test'));
    await first.jobs.stop();
    const smtp = smtpServer();
    servers.push(smtp);
    await smtp.listen(port);
    const second = startProcess(port);
    await second.jobs.start();
    await until(() => smtp.received.length === 1, 25_000);
    await second.jobs.idle(['mail']);
    expect(smtp.received.map((m) => m.to)).toEqual([['later@example.test']]);
    await second.jobs.stop();
  }, 40_000);

  it('after the last retry the failure is logged once, with the kind and not the address', async () => {
    const port = await freePort();
    const smtp = smtpServer(100);
    servers.push(smtp);
    await smtp.listen(port);
    const log = logLines();
    const { jobs, mail } = startProcess(port, { retryLimit: 1, log });
    await mail.send(message('never@example.test'));
    await until(() => log.lines.some((line) => line.includes('retries used up')), 25_000);
    await jobs.idle(['mail']);
    expect(smtp.refused).toHaveLength(2);
    expect(smtp.received).toHaveLength(0);
    const final = log.lines.filter((line) => line.includes('retries used up'));
    expect(final).toHaveLength(1);
    expect(final[0]).toContain('"kind":"welcome"');
    expect(log.lines.join('\n')).not.toContain('never@example.test');
    await jobs.stop();
  }, 40_000);
});

describe('the app with SMTP_URL', () => {
  it('sign-up answers at once; its mail reaches the SMTP server through the queue', async () => {
    const port = await freePort();
    const smtp = smtpServer();
    servers.push(smtp);
    await smtp.listen(port);
    const { app } = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
    const email = `signup_${Date.now()}@example.test`;
    const response = await app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { username: 'Alice', email, password: 'correct-horse-battery-9', age_confirmed: true },
    });
    expect(response.statusCode).toBe(201);
    await until(() => smtp.received.some((m) => m.to.includes(email)));
    await app.jobs.idle(['mail']);
    expect(smtp.received.filter((m) => m.to.includes(email)).length).toBeGreaterThanOrEqual(1);
    // No copy in the outbox: the queue hands it to SMTP only.
    const outbox = await app.inject({ method: 'GET', url: '/dev/mailbox.json' });
    expect(JSON.stringify(outbox.json())).not.toContain(email);
  }, 40_000);
});

describe('outbox (no SMTP_URL)', () => {
  it('writes the message directly to the database outbox, not through the queue', async () => {
    const jobs = createJobQueue(database, { pollingIntervalSeconds: 0.5 });
    queues.push(jobs);
    const mail = createMailProvider(testConfig(), database.db, edition, jobs);
    expect(mail).toBeInstanceOf(OutboxMailProvider);
  });
});
