import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, mailOutbox, messageReports, messages, supportReports } from '../../db/schema.js';
import { createMediaStorage } from '../../providers/storage/index.js';
import type { MediaStorage } from '../../providers/storage/storage.js';
import { createTestApp, testConfig, type TestApp } from '../../../test/helpers.js';
import { createBot, createChat, createMessage, createUser } from '../../../test/factories.js';
import { getEdition } from '@reverie/shared';
import { MediaUrls } from '../../lib/media-urls.js';
import type { AdminDeps } from './admin-deps.js';
import { AdminReportsService } from './reports.service.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-reports-'));
let t: TestApp;
let storage: MediaStorage;
let admin: Awaited<ReturnType<typeof createUser>>;
let user: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  storage = createMediaStorage(testConfig({ DATA_DIR: dataDir }));
  t = await createTestApp({ env: { DATA_DIR: dataDir }, storage });
  admin = await createUser(t.app, t.database.db, { role: 'admin' });
  // Verified: a signed-in author's answer goes to the account's verified address (issue 27).
  user = await createUser(t.app, t.database.db, { locale: 'es', isEmailConfirmed: true });
});

/** A chat of seven messages, one minute apart; the user reports the fourth (through the API). */
async function reportedChat(extra: { mediaKey?: string } = {}) {
  const db = t.database.db;
  const bot = await createBot(db);
  const chat = await createChat(db, { userId: user.user.id, botId: bot.id });
  const start = Date.now() - 3600_000;
  const rows = [];
  for (let i = 0; i < 7; i++) {
    rows.push(
      await createMessage(db, chat, {
        role: i % 2 ? 'bot' : 'user',
        text: `message ${i}`,
        createdAt: new Date(start + i * 60_000),
        ...(i === 3 ? extra : {}),
      }),
    );
  }
  const reported = rows[3]!;
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/chat/${chat.id}/messages/${reported.id}/report`,
    headers: user.auth,
    payload: { reason: 'harassment', comment: 'Rude.' },
  });
  expect(res.statusCode).toBe(201);
  const [report] = await db.select().from(messageReports).where(eq(messageReports.messageId, reported.id));
  return { bot, chat, rows, reported, report: report! };
}

describe('/api/admin/reports', () => {
  it('401 for a guest and 403 for a user on every route', async () => {
    const uuid = '0b9a6b1e-5a4f-4c59-9f5e-0c2a7e1d3b44';
    const routes = [
      ['GET', '/api/admin/reports/count'],
      ['GET', '/api/admin/reports/messages'],
      ['GET', '/api/admin/reports/messages/1'],
      ['POST', '/api/admin/reports/messages/1/resolve'],
      ['POST', '/api/admin/reports/messages/1/remove-message'],
      ['GET', '/api/admin/reports/support'],
      ['GET', `/api/admin/reports/support/${uuid}`],
      ['POST', `/api/admin/reports/support/${uuid}/answer`],
      ['POST', `/api/admin/reports/support/${uuid}/close`],
    ] as const;
    for (const [method, url] of routes) {
      const payload = method === 'POST' ? {} : undefined;
      expect((await t.app.inject({ method, url, payload })).statusCode, `${method} ${url}`).toBe(401);
      expect((await t.app.inject({ method, url, headers: user.auth, payload })).statusCode, `${method} ${url}`).toBe(
        403,
      );
    }
  });

  it('shows a message report with its context and resolves it with a note, audit-logged', async () => {
    const { bot, rows, report } = await reportedChat();
    const count = async () =>
      (
        (await t.app.inject({ method: 'GET', url: '/api/admin/reports/count', headers: admin.auth })).json() as {
          count: number;
        }
      ).count;
    const before = await count();
    expect(before).toBeGreaterThanOrEqual(1);

    const list = await t.app.inject({ method: 'GET', url: '/api/admin/reports/messages', headers: admin.auth });
    expect(list.statusCode).toBe(200);
    expect((list.json() as { items: { id: number }[] }).items.map((i) => i.id)).toContain(report.id);

    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/admin/reports/messages/${report.id}`,
      headers: admin.auth,
    });
    expect(detail.statusCode).toBe(200);
    const body = detail.json() as {
      reason: string;
      comment: string;
      character: { id: string };
      reporter: { id: string };
      context: { id: string; text: string; reported: boolean }[];
    };
    expect(body).toMatchObject({ reason: 'harassment', comment: 'Rude.' });
    expect(body.character.id).toBe(bot.id);
    expect(body.reporter.id).toBe(user.user.id);
    // Three before, the message, three after, in order.
    expect(body.context.map((m) => m.text)).toEqual(rows.map((r) => r.text));
    expect(body.context.filter((m) => m.reported).map((m) => m.id)).toEqual([rows[3]!.id]);

    const resolved = await t.app.inject({
      method: 'POST',
      url: `/api/admin/reports/messages/${report.id}/resolve`,
      headers: admin.auth,
      payload: { note: 'Warned the character author.' },
    });
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json()).toMatchObject({ status: 'resolved', resolution: 'Warned the character author.' });
    expect(await count()).toBe(before - 1);
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'report.resolve'), eq(auditLog.targetId, String(report.id))));
    expect(audit).toMatchObject({ actorId: admin.user.id, reason: 'Warned the character author.' });
  });

  it('removes a reported message and its files, audit-logged', async () => {
    const picture = `chats/${user.user.id}/reported.webp`;
    await storage.put(picture, Buffer.from('x'), 'image/webp');
    const { reported, report } = await reportedChat({ mediaKey: picture });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/admin/reports/messages/${report.id}/remove-message`,
      headers: admin.auth,
      payload: { note: 'Illegal content.' },
    });
    expect(res.statusCode).toBe(200);
    expect(await t.database.db.select().from(messages).where(eq(messages.id, reported.id))).toHaveLength(0);
    expect(await storage.exists(picture)).toBe(false);
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'message.remove'), eq(auditLog.targetId, reported.id)));
    expect(audit?.before).toMatchObject({ text: 'message 3', report: report.id });
  });

  it("answers a support report by e-mail (to the author's address, in their language) and closes it", async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/support',
      headers: user.auth,
      payload: { subject: 'Payment', text: 'My desires did not arrive.' },
    });
    expect(created.statusCode).toBe(201);
    const { id } = created.json() as { id: string };
    const list = await t.app.inject({ method: 'GET', url: '/api/admin/reports/support', headers: admin.auth });
    expect((list.json() as { items: { id: string }[] }).items.map((i) => i.id)).toContain(id);

    const answered = await t.app.inject({
      method: 'POST',
      url: `/api/admin/reports/support/${id}/answer`,
      headers: admin.auth,
      payload: { answer: 'They are on your balance now.\nSorry for the wait.' },
    });
    expect(answered.statusCode).toBe(200);
    expect(answered.json()).toMatchObject({
      status: 'closed',
      answer: 'They are on your balance now.\nSorry for the wait.',
    });
    const [row] = await t.database.db.select().from(supportReports).where(eq(supportReports.id, id));
    expect(row).toMatchObject({ handledBy: admin.user.id, status: 'closed' });
    expect(row!.answeredAt).toBeInstanceOf(Date);

    const mails = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, user.user.email));
    const mail = mails.find((m) => m.kind === 'support_answer');
    expect(mail).toBeDefined();
    expect(mail!.subject).toBe('Re: Payment');
    expect(mail!.text).toContain('They are on your balance now.');
    expect(mail!.text).toContain('Sorry for the wait.');
    expect(mail!.text).toContain('Hola'); // the author's language (es)
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'support.answer'), eq(auditLog.targetId, id)));
    expect(audit).toBeDefined();
  });

  it("sends a signed-in author's answer to the account's verified address, never to an address typed in the report (issue 27)", async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/support',
      headers: user.auth,
      payload: { email: 'attacker@example.test', subject: 'Elsewhere', text: 'Send the answer elsewhere.' },
    });
    expect(created.statusCode).toBe(201);
    const { id } = created.json() as { id: string };
    const shown = await t.app.inject({ url: `/api/admin/reports/support/${id}`, headers: admin.auth });
    expect(shown.json()).toMatchObject({ email: user.user.email });
    const answered = await t.app.inject({
      method: 'POST',
      url: `/api/admin/reports/support/${id}/answer`,
      headers: admin.auth,
      payload: { answer: 'Here is your answer.' },
    });
    expect(answered.statusCode).toBe(200);
    const mails = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'support_answer'));
    expect(mails.some((m) => m.toAddress === 'attacker@example.test')).toBe(false);
    expect(mails.some((m) => m.toAddress === user.user.email && m.subject === 'Re: Elsewhere')).toBe(true);

    // An account whose address is not verified gets no answer by e-mail (its address may be anyone's).
    const unverified = await createUser(t.app, t.database.db);
    const report = await t.app.inject({
      method: 'POST',
      url: '/api/support',
      headers: unverified.auth,
      payload: { email: 'typed@example.test', subject: 'Unverified', text: 'Answer me.' },
    });
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/admin/reports/support/${(report.json() as { id: string }).id}/answer`,
      headers: admin.auth,
      payload: { answer: 'Hello.' },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'no_email' });
    const all = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'support_answer'));
    expect(all.some((m) => m.toAddress === 'typed@example.test' || m.toAddress === unverified.user.email)).toBe(false);
  });

  it('answers a guest report at the address it gave, and closes one without answering', async () => {
    const guest = await t.app.inject({
      method: 'POST',
      url: '/api/support',
      payload: { email: 'guest@example.test', text: 'Cannot sign up.' },
    });
    const { id } = guest.json() as { id: string };
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/admin/reports/support/${id}/answer`,
      headers: admin.auth,
      payload: { answer: 'Try again now.', close: false },
    });
    expect(res.json()).toMatchObject({ status: 'open', email: 'guest@example.test' });
    const mails = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'guest@example.test'));
    expect(mails.map((m) => m.kind)).toEqual(['support_answer']);
    const closed = await t.app.inject({
      method: 'POST',
      url: `/api/admin/reports/support/${id}/close`,
      headers: admin.auth,
    });
    expect(closed.json()).toMatchObject({ status: 'closed' });
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, id));
    expect(audit.map((a) => a.action).sort()).toEqual(['support.answer', 'support.close']);
  });

  it('a retried answer is a 409 already_answered: no second audit row, no second e-mail; a closed report 409 report_closed', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/support',
      payload: { email: 'retry@example.test', text: 'Where is my receipt?' },
    });
    const { id } = created.json() as { id: string };
    const answer = (text: string, close = true) =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/reports/support/${id}/answer`,
        headers: admin.auth,
        payload: { answer: text, close },
      });
    expect((await answer('It is in your inbox.')).statusCode).toBe(200);
    const retry = await answer('It is in your inbox.');
    expect(retry.statusCode).toBe(409);
    expect(retry.json()).toMatchObject({ code: 'already_answered' });
    const other = await answer('Another text.');
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ code: 'report_closed' });
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, id));
    expect(audit.map((a) => a.action)).toEqual(['support.answer']);
    const mails = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'retry@example.test'));
    expect(mails).toHaveLength(1);
  });

  it('answers 200 only once the e-mail is queued: a queue that refuses it leaves the report as it was (503)', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/support',
      payload: { email: 'queue-down@example.test', text: 'Nothing works.' },
    });
    const { id } = created.json() as { id: string };
    let down = true;
    const sent: string[] = [];
    const deps = {
      db: t.database.db,
      edition: getEdition('Reverie'),
      urls: new MediaUrls('secret'),
      log: t.app.log,
      mail: {
        name: 'queue',
        send: async (message: { to: string }) => {
          if (down) throw new Error('queue unavailable');
          sent.push(message.to);
        },
      },
    } as unknown as AdminDeps;
    const service = new AdminReportsService(deps);
    await expect(service.answerSupportReport(admin.user.id, id, 'Fixed now.', true)).rejects.toMatchObject({
      code: 'mail_not_queued',
      statusCode: 503,
    });
    const [after] = await t.database.db.select().from(supportReports).where(eq(supportReports.id, id));
    expect(after).toMatchObject({ status: 'open', answer: null, answeredAt: null });
    // The retry goes through once the queue takes it.
    down = false;
    await expect(service.answerSupportReport(admin.user.id, id, 'Fixed now.', true)).resolves.toMatchObject({
      status: 'closed',
      answer: 'Fixed now.',
    });
    expect(sent).toEqual(['queue-down@example.test']);
  });
});
