import { describe, expect, it } from 'vitest';
import { createTestApp, createTestDatabase, type TestApp } from '../../../test/helpers.js';

/** Two replicas on one database share the per-account limits of mail-sending routes. */
const env = { AUTH_RATE_LIMIT_IP_PER_MINUTE: '1000', AUTH_RATE_LIMIT_ACCOUNT_PER_MINUTE: '3' };

async function replicas(): Promise<[TestApp, TestApp]> {
  const database = await createTestDatabase();
  return [await createTestApp({ database, env }), await createTestApp({ database, env })];
}

describe('per-account limits across replicas', () => {
  it('password reset: three requests in all, on either replica; the fourth is 429 on both', async () => {
    const [a, b] = await replicas();
    const reset = (t: TestApp, email: string) =>
      t.app.inject({ method: 'POST', url: '/api/password_reset', payload: { email }, remoteAddress: '10.4.0.1' });
    for (const t of [a, b, a]) expect((await reset(t, 'nobody@example.test')).statusCode).toBe(200);
    for (const t of [b, a]) {
      const limited = await reset(t, 'NOBODY@example.test');
      expect(limited.statusCode).toBe(429);
      expect(limited.json().code).toBe('rate_limited');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    }
    // Another account is not affected.
    expect((await reset(b, 'other@example.test')).statusCode).toBe(200);
    await Promise.all([a.app.accounts.idle(), b.app.accounts.idle()]);
  });

  it('resend activation: counted per user by both replicas', async () => {
    const [a, b] = await replicas();
    const email = `resend_${Date.now()}@example.test`;
    const password = 'correct horse battery';
    await a.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { username: 'resend', email, password, age_confirmed: true },
    });
    const { access } = (
      await a.app.inject({ method: 'POST', url: '/api/token', payload: { email, password } })
    ).json() as { access: string };
    const resend = (t: TestApp) =>
      t.app.inject({ url: '/api/resend_activation/?force=1', headers: { authorization: `Bearer ${access}` } });
    for (const t of [a, b, b]) expect((await resend(t)).statusCode).toBe(200);
    expect((await resend(a)).statusCode).toBe(429);
    await Promise.all([a.app.accounts.idle(), b.app.accounts.idle()]);
  });
});
