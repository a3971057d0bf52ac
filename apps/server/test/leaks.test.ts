import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getEdition } from '@reverie/shared';
import { createLoggedApp } from './log-capture.js';
import { createBot, createChat, createUser } from './factories.js';
import { createTestDatabase } from './helpers.js';
import { startFakeOpenAi, type FakeOpenAi } from './fake-openai.js';
import { parseSse } from './scripted-llm.js';
import { rowsOf } from '../src/db/client.js';
import { mailOutbox, messages, users } from '../src/db/schema.js';
import { renderEmail } from '../src/modules/accounts/accounts.emails.js';
import { networkOf, redactUrl, scrubText } from '../src/lib/redact.js';
import { mailSafe } from '../src/lib/templates.js';

/** What must never appear in a log line or a user-facing error. */
const EMAIL = 'leaky.person@example.test';
const PASSWORD_HASH = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$SECRETHASHVALUE0123456789';
const MESSAGE_TEXT = 'my very private message text 4242';
const SIGNATURE = 'SIGNATUREsecretAbc123_-';
const RESET_TOKEN = 'RESETtokenSecret0123456789abcdef';
const ACTIVATION_CODE = 'ACTIVATIONcodeSecret0123456789ab';

describe('redaction helpers', () => {
  it('hide secret query values and secret path segments, keep the rest', () => {
    expect(redactUrl(`/api/media/chat/a.png?exp=1700000000&sig=${SIGNATURE}`)).toBe(
      '/api/media/chat/a.png?exp=[redacted]&sig=[redacted]',
    );
    expect(redactUrl(`/api/activate/${ACTIVATION_CODE}/`)).toBe('/api/activate/[redacted]/');
    expect(redactUrl(`/password/${RESET_TOKEN}?x=1`)).toBe('/password/[redacted]?x=1');
    expect(redactUrl(`/password?token=${RESET_TOKEN}`)).toBe('/password?token=[redacted]');
    expect(redactUrl('/api/bots/available?size=30&tags=anime')).toBe('/api/bots/available?size=30&tags=anime');
    expect(redactUrl(`/api/x?who=${encodeURIComponent(EMAIL)}`)).toBe('/api/x?who=[email]');
  });

  it("cut a client's address to its network (IPv4 /24, IPv6 /48), and drop what is no address", () => {
    expect(networkOf('203.0.113.77')).toBe('203.0.113.0/24');
    expect(networkOf('::ffff:198.51.100.9')).toBe('198.51.100.0/24');
    expect(networkOf('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe('2001:db8:85a3::/48');
    expect(networkOf('2001:db8::1')).toBe('2001:db8::/48');
    expect(networkOf('::1')).toBe('::/48');
    for (const nothing of [undefined, '', 'unix-socket', '999.1.1.1']) expect(networkOf(nothing)).toBeUndefined();
  });

  it('scrub e-mails, password hashes, link secrets and Drizzle parameter lists from texts', () => {
    const text = scrubText(
      `Failed query: insert into users values ($1, $2)\nparams: ${EMAIL},${PASSWORD_HASH}\n    at x (y.js:1:1) GET /api/media/k?sig=${SIGNATURE} Bearer abc.def.ghi`,
    );
    for (const secret of [EMAIL, PASSWORD_HASH, SIGNATURE, 'abc.def.ghi']) expect(text).not.toContain(secret);
    expect(text).toContain('insert into users');
    expect(scrubText(`invalid input syntax for type uuid: "${MESSAGE_TEXT}"`)).toBe(
      'invalid input syntax for type uuid: "[redacted]"',
    );
  });
});

describe('logs never carry personal data, tokens or signed URLs', () => {
  let logged: Awaited<ReturnType<typeof createLoggedApp>>;
  beforeAll(async () => {
    const database = await createTestDatabase();
    logged = await createLoggedApp({
      database,
      extend: (app) => {
        // Failing inserts through the error handler, as a real route's bug would.
        app.post('/test/duplicate-user', async () => {
          const values = { username: 'leaky', name: 'Leaky', email: EMAIL, passwordHash: PASSWORD_HASH };
          await database.db.insert(users).values(values);
          await database.db.insert(users).values(values);
          return { ok: true };
        });
        app.post('/test/orphan-message', async () => {
          await database.db
            .insert(messages)
            .values({ chatId: randomUUID(), userId: randomUUID(), role: 'user', kind: 1, text: MESSAGE_TEXT });
          return { ok: true };
        });
      },
    });
  });
  afterAll(() => logged.close());

  const leaks = (text: string) =>
    [EMAIL, 'SECRETHASHVALUE', MESSAGE_TEXT, SIGNATURE, RESET_TOKEN, ACTIVATION_CODE].filter((s) => text.includes(s));

  it('a unique violation on a user insert and a foreign-key failure on a message insert', async () => {
    const duplicate = await logged.app.inject({ method: 'POST', url: '/test/duplicate-user' });
    expect(duplicate.statusCode).toBe(500);
    expect(duplicate.json()).toEqual({ detail: 'Internal Server Error', code: 'internal_error' });
    const orphan = await logged.app.inject({ method: 'POST', url: '/test/orphan-message' });
    expect(orphan.statusCode).toBe(500);
    // Logged directly too (a service's own `log.error({ err })`).
    try {
      await logged.database.db
        .insert(users)
        .values({ username: 'leaky2', name: 'Leaky', email: EMAIL, passwordHash: PASSWORD_HASH });
    } catch (error) {
      logged.app.log.error({ err: error }, 'direct');
    }
    const failures = logged.log.entries().filter((e) => e.msg === 'request failed' || e.msg === 'direct');
    expect(failures).toHaveLength(3);
    // The useful parts stay: the SQL statement and the database's error code.
    expect(JSON.stringify(failures)).toContain('23505');
    expect(JSON.stringify(failures)).toContain('23503');
    expect(JSON.stringify(failures)).toContain('insert into');
    expect(leaks(logged.log.text())).toEqual([]);
  });

  it('a media request with a signed URL, activation and password links', async () => {
    const before = logged.log.lines.length;
    await logged.app.inject({ url: `/api/media/chat/${randomUUID()}.png?exp=9999999999&sig=${SIGNATURE}` });
    await logged.app.inject({ url: `/api/activate/${ACTIVATION_CODE}/` });
    await logged.app.inject({
      method: 'POST',
      url: `/password/${RESET_TOKEN}/`,
      payload: { password: 'new-password-1', password_confirm: 'new-password-1' },
    });
    await logged.app.inject({ url: `/password/${RESET_TOKEN}` }); // GET: no such API route
    await logged.app.inject({ url: `/api/password_reset/validate_token?token=${RESET_TOKEN}` });
    const lines = logged.log.lines.slice(before).join('\n');
    expect(lines).toContain('/api/media/chat/');
    expect(lines).toContain('/api/activate/[redacted]');
    expect(lines).toContain('/password/[redacted]');
    // The client's address only as its network, no port.
    expect(lines).toContain('"remoteAddress":"127.0.0.0/24"');
    expect(lines).not.toContain('127.0.0.1');
    expect(lines).not.toContain('remotePort');
    expect(leaks(lines)).toEqual([]);
  });

  it('log-in and password reset requests leave no e-mail or password in the log', async () => {
    const before = logged.log.lines.length;
    await logged.app.inject({ method: 'POST', url: '/api/token', payload: { email: EMAIL, password: 'wrong-pass' } });
    await logged.app.inject({ method: 'POST', url: '/api/password_reset', payload: { email: EMAIL } });
    await logged.app.accounts.idle();
    const lines = logged.log.lines.slice(before).join('\n');
    expect(lines).not.toContain(EMAIL);
    expect(lines).not.toContain('wrong-pass');
  });
});

describe('an upstream model error never reaches the user', () => {
  let fake: FakeOpenAi;
  let logged: Awaited<ReturnType<typeof createLoggedApp>>;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
    logged = await createLoggedApp({
      env: { LLM_PROVIDER: 'openai', LLM_BASE_URL: fake.url, LLM_MODEL: 'fake-model', LLM_API_KEY: 'sk-test-key' },
    });
  });
  afterAll(async () => {
    await logged.close();
    await fake.close();
  });

  it("the stream's error event has a code and a generic text; the detail is in the log", async () => {
    const secret = `sk-live-UPSTREAMSECRET at ${fake.url}/internal from 10.1.2.3`;
    fake.setBehaviour({ mode: 'fail', status: 500, text: secret });
    const { user, auth } = await createUser(logged.app, logged.database.db);
    const bot = await createBot(logged.database.db);
    const chat = await createChat(logged.database.db, { userId: user.id, botId: bot.id });
    const res = await logged.app.inject({
      method: 'POST',
      url: `/api/chat/${chat.id}/messages`,
      headers: auth,
      payload: { client_id: randomUUID(), text: 'Hello' },
    });
    expect(res.statusCode).toBe(200);
    const events = parseSse(res.body);
    const error = events.find((e) => e.event === 'error');
    expect(error?.data).toMatchObject({ code: 'provider_error', detail: 'The AI could not answer. Try again.' });
    const port = new URL(fake.url).port;
    for (const leak of ['UPSTREAMSECRET', fake.url, '127.0.0.1', `:${port}`, '10.1.2.3', 'answered 500'])
      expect(res.body, leak).not.toContain(leak);
    // In German too, and the operator still finds the reason in the log.
    const de = await logged.app.inject({
      method: 'POST',
      url: `/api/chat/${chat.id}/messages`,
      headers: { ...auth, 'accept-language': 'de' },
      payload: { client_id: randomUUID(), text: 'Hallo' },
    });
    const deError = parseSse(de.body).find((e) => e.event === 'error');
    expect((deError?.data as { detail: string }).detail).toBe('Die KI konnte nicht antworten. Versuch es noch einmal.');
    expect(logged.log.text()).toContain('UPSTREAMSECRET');
  });
});

describe('analytics never stores e-mails', () => {
  let logged: Awaited<ReturnType<typeof createLoggedApp>>;
  beforeAll(async () => {
    logged = await createLoggedApp();
  });
  afterAll(() => logged.close());

  it('drops e-mail properties and masks addresses inside other values and the device id', async () => {
    const res = await logged.app.inject({
      method: 'POST',
      url: '/api/analytics/events',
      payload: {
        events: [
          {
            name: 'identify',
            props: { email: EMAIL, note: `contact ${EMAIL} please`, lang: 'de', n: 3 },
            ts: '2026-11-22T08:00:00.000Z',
            device_id: EMAIL,
          },
        ],
      },
    });
    expect(res.statusCode).toBe(202);
    const rows = rowsOf<{ props: Record<string, unknown>; device_id: string }>(
      await logged.database.db.execute(
        sql`select props, device_id from analytics_events where name = 'identify' order by id desc limit 1`,
      ),
    );
    expect(rows[0]?.props).toEqual({ note: 'contact [email] please', lang: 'de', n: 3 });
    expect(JSON.stringify(rows)).not.toContain(EMAIL);
  });
});

describe('e-mails never carry CR/LF from user fields', () => {
  it('mailSafe turns control characters into one space', () => {
    expect(mailSafe('Eve\r\nBcc: evil@example.test\u0000\u2028x')).toBe('Eve Bcc: evil@example.test x');
  });

  it('a name with CR/LF stays on its line in subject, text and HTML', () => {
    const name = 'Eve\r\nBcc: evil@example.test\r\n\r\nInjected line';
    const mail = renderEmail({
      kind: 'welcome',
      locale: 'en',
      edition: getEdition('reverie'),
      name,
      actionUrl: 'https://chat.example.com/',
      unsubscribeUrl: 'https://chat.example.com/email/unsubscribe?token=t',
      vars: { extra: 'a\rb' },
    });
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.text).not.toContain('\r');
    expect(mail.text.split('\n').some((line) => /^(Bcc:|Injected line)/.test(line))).toBe(false);
    expect(mail.text).toContain('Welcome, Eve Bcc: evil@example.test Injected line!');
    expect(mail.html).not.toMatch(/Eve[\r\n]/);
  });

  it('an existing account whose name has CR/LF gets a clean reset mail', async () => {
    const logged = await createLoggedApp();
    try {
      const email = `crlf-${randomUUID().slice(0, 8)}@example.test`;
      await createUser(logged.app, logged.database.db, { email, name: 'Mallory\r\nBcc: evil@example.test' });
      const res = await logged.app.inject({ method: 'POST', url: '/api/password_reset', payload: { email } });
      expect(res.statusCode).toBe(200);
      await logged.app.accounts.idle();
      const [mail] = await logged.database.db
        .select()
        .from(mailOutbox)
        .where(sql`${mailOutbox.toAddress} = ${email}`);
      expect(mail).toBeDefined();
      expect(mail!.subject).not.toMatch(/[\r\n]/);
      expect(mail!.text).not.toContain('\r');
      expect(mail!.text).toContain('Hi Mallory Bcc: evil@example.test,');
      expect(mail!.text.split('\n').some((line) => line.startsWith('Bcc:'))).toBe(false);
      for (const value of Object.values(mail!.headers)) expect(value).not.toMatch(/[\r\n]/);
    } finally {
      await logged.close();
    }
  });
});
