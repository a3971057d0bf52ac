import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, rowsOf, type DatabaseHandle } from '../../db/client.js';
import { mailOutbox } from '../../db/schema.js';
import { SharedLimiter } from '../../lib/shared-limiter.js';
import { createTestApp, createTestDatabase, type TestApp } from '../../../test/helpers.js';

const env = {
  LOGIN_FAILURES_BEFORE_DELAY: '3',
  LOGIN_DELAY_BASE_S: '30',
  LOGIN_DELAY_MAX_S: '120',
  // The per-minute limits stay out of the way of these tests.
  AUTH_RATE_LIMIT_ACCOUNT_PER_MINUTE: '1000',
  AUTH_RATE_LIMIT_IP_PER_MINUTE: '1000',
};

let database: DatabaseHandle;
let second: DatabaseHandle;
let one: TestApp;
let two: TestApp;

beforeAll(async () => {
  database = await createTestDatabase();
  // A second replica: on PostgreSQL its own connection pool to the same database.
  second = database.raw.kind === 'postgres' ? await openDatabase({ url: database.raw.url, poolSize: 5 }) : database;
  one = await createTestApp({ database, env });
  two = await createTestApp({ database: second, env });
});
afterAll(async () => {
  if (second !== database) await second.close();
});

const login = (app: TestApp, email: string, password: string, ip: string) =>
  app.app.inject({ method: 'POST', url: '/api/token', payload: { email, password }, remoteAddress: ip });

/** Ends the current pause at once, as if its time had passed. */
const endPause = () =>
  database.db.execute(
    sql`update rate_limits set blocked_until = now() - interval '1 second' where key like 'login:%' and blocked_until is not null`,
  );

async function signUp(email: string, password = 'right-password') {
  const res = await one.app.inject({
    method: 'POST',
    url: '/api/register',
    payload: { username: email.split('@')[0], email, password, age_confirmed: true },
  });
  expect(res.statusCode).toBe(201);
}

describe('per-account log-in delays', () => {
  it('count failures from any address, grow the delay, refuse the right password during it, reset on success', async () => {
    const email = 'delays@example.test';
    await signUp(email);
    expect((await login(one, email, 'wrong-1', '10.0.0.1')).statusCode).toBe(401);
    expect((await login(one, email, 'wrong-2', '10.0.0.2')).statusCode).toBe(401);
    const first = await login(one, email, 'wrong-3', '10.0.0.1');
    expect(first.statusCode).toBe(429);
    expect(first.json().code).toBe('login_locked');
    expect(Number(first.headers['retry-after'])).toBeGreaterThanOrEqual(29);
    expect(Number(first.headers['retry-after'])).toBeLessThanOrEqual(30);
    // The owner's right password, from yet another address, waits too — and is told so.
    const owner = await login(one, email, 'right-password', '10.0.0.3');
    expect(owner.statusCode).toBe(429);
    expect(owner.json().detail).toContain('even with the right password');
    expect(Number(owner.headers['retry-after'])).toBeGreaterThan(0);
    const de = await one.app.inject({
      method: 'POST',
      url: '/api/token',
      payload: { email, password: 'right-password' },
      headers: { 'accept-language': 'de' },
    });
    expect(de.json().detail).toContain('richtigen Passwort');

    const retryAfter: number[] = [Number(first.headers['retry-after'])];
    for (const ip of ['10.0.0.2', '10.0.0.1', '10.0.0.2']) {
      await endPause();
      const res = await login(one, email, 'wrong-again', ip);
      expect(res.statusCode).toBe(429);
      retryAfter.push(Number(res.headers['retry-after']));
    }
    // 30 s, then doubling, at most the cap (120 s).
    expect(retryAfter.map((s) => Math.round(s / 10) * 10)).toEqual([30, 60, 120, 120]);

    await endPause();
    expect((await login(one, email, 'right-password', '10.0.0.4')).statusCode).toBe(200);
    // Forgotten: the next failure is a plain 401 again.
    expect((await login(one, email, 'wrong-after', '10.0.0.1')).statusCode).toBe(401);
    expect((await login(one, email, 'right-password', '10.0.0.1')).statusCode).toBe(200);
  });

  it('count unknown e-mails the same way (no account is revealed)', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) codes.push((await login(one, 'nobody@example.test', 'x', `10.1.0.${i}`)).statusCode);
    expect(codes).toEqual([401, 401, 429, 429]);
  });

  it('are shared by two app instances on one database', async () => {
    const email = 'replicas@example.test';
    await signUp(email);
    expect((await login(one, email, 'wrong', '10.2.0.1')).statusCode).toBe(401);
    expect((await login(two, email, 'wrong', '10.2.0.2')).statusCode).toBe(401);
    expect((await login(one, email, 'wrong', '10.2.0.3')).statusCode).toBe(429);
    const elsewhere = await login(two, email, 'right-password', '10.2.0.4');
    expect(elsewhere.statusCode).toBe(429);
    expect(elsewhere.json().code).toBe('login_locked');
    await endPause();
    expect((await login(two, email, 'right-password', '10.2.0.4')).statusCode).toBe(200);
    expect((await login(one, email, 'wrong', '10.2.0.1')).statusCode).toBe(401);
  });

  it('count every one of many concurrent failures from both instances', async () => {
    const limiters = [new SharedLimiter(database.db, 'concurrency'), new SharedLimiter(second.db, 'concurrency')];
    const policy = { freeFailures: 1000, baseDelayS: 1, maxDelayS: 2, forgetAfterS: 60 };
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, (_, i) => limiters[i % 2]!.recordFailure('same-key', policy)),
    );
    expect(outcomes.map((o) => o.failures).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    const rows = rowsOf<{ hits: number }>(
      await database.db.execute(sql`select hits from rate_limits where key = 'concurrency:same-key'`),
    );
    expect(rows[0]?.hits).toBe(40);
    await limiters[0]!.reset('same-key');
    expect(await limiters[1]!.blockedFor('same-key')).toBe(0);
  });
});

describe('password reset', () => {
  it('answers the same for an existing and an unknown e-mail; the mail still goes out', async () => {
    const email = 'reset-me@example.test';
    await signUp(email);
    const existing = await one.app.inject({ method: 'POST', url: '/api/password_reset', payload: { email } });
    const unknown = await one.app.inject({
      method: 'POST',
      url: '/api/password_reset',
      payload: { email: 'not-an-account@example.test' },
    });
    expect(existing.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(existing.statusCode);
    expect(unknown.body).toBe(existing.body);
    expect(unknown.headers['content-length']).toBe(existing.headers['content-length']);
    await one.app.accounts.idle();
    const kinds = (await one.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email))).map(
      (m) => m.kind,
    );
    expect(kinds).toContain('reset');
    expect(
      await one.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'not-an-account@example.test')),
    ).toEqual([]);
  });

  it('does not wait for the lookup or the mail', async () => {
    const email = 'slow-reset@example.test';
    await signUp(email);
    // Hold the users table: the lookup cannot finish until the lock goes, the answer can.
    const { app } = one;
    let answered = false;
    if (database.raw.kind === 'postgres') {
      const locker = database.raw.client;
      await locker.begin(async (tx) => {
        await tx`lock table users in access exclusive mode`;
        const res = await app.inject({ method: 'POST', url: '/api/password_reset', payload: { email } });
        answered = res.statusCode === 200;
      });
    } else {
      const res = await app.inject({ method: 'POST', url: '/api/password_reset', payload: { email } });
      answered = res.statusCode === 200;
    }
    expect(answered).toBe(true);
    await app.accounts.idle();
  });
});
