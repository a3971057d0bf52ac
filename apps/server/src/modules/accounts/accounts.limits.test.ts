import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    env: {
      AUTH_RATE_LIMIT_IP_PER_MINUTE: '1000',
      AUTH_RATE_LIMIT_ACCOUNT_PER_MINUTE: '3',
      NODE_ENV: 'production',
      DATA_DIR: `/tmp/reverie-limits-test-${process.pid}`,
    },
  });
});

const post = (url: string, payload: Record<string, unknown>, ip = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url, payload, remoteAddress: ip });

describe('rate limits', () => {
  it('answer 429 with Retry-After per account at log-in, without locking the owner out elsewhere', async () => {
    await post('/api/register', {
      username: 'Owner',
      email: 'owner@example.test',
      password: 'secret-1',
      age_confirmed: true,
    });
    for (let i = 0; i < 3; i++)
      expect(
        (await post('/api/token', { email: 'owner@example.test', password: 'wrong!' }, '10.9.9.9')).statusCode,
      ).toBe(401);
    const limited = await post('/api/token', { email: 'owner@example.test', password: 'wrong!' }, '10.9.9.9');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().code).toBe('rate_limited');
    // The owner, from their own address, still gets in.
    expect(
      (await post('/api/token', { email: 'owner@example.test', password: 'secret-1' }, '10.1.1.1')).statusCode,
    ).toBe(200);
  });

  it('answer 429 per account for password reset and sign-up', async () => {
    for (let i = 0; i < 3; i++)
      expect((await post('/api/password_reset', { email: 'target@example.test' }, `10.2.0.${i}`)).statusCode).toBe(200);
    expect((await post('/api/password_reset', { email: 'target@example.test' }, '10.2.0.99')).statusCode).toBe(429);
    for (let i = 0; i < 3; i++)
      await post(
        '/api/register',
        { username: 'x', email: 'dup@example.test', password: 'secret-1', age_confirmed: true },
        `10.3.0.${i}`,
      );
    expect(
      (
        await post(
          '/api/register',
          { username: 'x', email: 'dup@example.test', password: 'secret-1', age_confirmed: true },
          '10.3.0.99',
        )
      ).statusCode,
    ).toBe(429);
  });

  it('answer 429 for resend', async () => {
    await post(
      '/api/register',
      { username: 'R', email: 'resend@example.test', password: 'secret-1', age_confirmed: true },
      '10.4.0.1',
    );
    const { access } = (
      await post('/api/token', { email: 'resend@example.test', password: 'secret-1' }, '10.4.0.1')
    ).json();
    const codes: number[] = [];
    for (let i = 0; i < 4; i++)
      codes.push(
        (
          await t.app.inject({
            url: '/api/resend_activation?force=1',
            headers: { authorization: `Bearer ${access}` },
            remoteAddress: '10.4.0.1',
          })
        ).statusCode,
      );
    expect(codes).toEqual([200, 200, 200, 429]);
  });

  it('hides /dev/mailbox in production', async () => {
    expect((await t.app.inject({ url: '/dev/mailbox' })).statusCode).toBe(404);
  });
});

describe('rate limits per IP', () => {
  it('answer 429', async () => {
    const app = (
      await createTestApp({
        env: { AUTH_RATE_LIMIT_IP_PER_MINUTE: '2', DATA_DIR: `/tmp/reverie-limits-test-${process.pid}` },
      })
    ).app;
    const codes: number[] = [];
    for (let i = 0; i < 3; i++)
      codes.push(
        (
          await app.inject({
            method: 'POST',
            url: '/api/token',
            payload: { email: `n${i}@example.test`, password: 'whatever' },
          })
        ).statusCode,
      );
    expect(codes).toEqual([401, 401, 429]);
  });
});
