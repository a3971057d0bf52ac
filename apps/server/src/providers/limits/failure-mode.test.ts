import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { ResilientWindowCounter, WindowLimiter, type WindowCount, type WindowCounter } from './index.js';

/** A shared backend that never answers (Redis or the database hung). */
class HangingCounter implements WindowCounter {
  readonly kind = 'redis' as const;
  calls = 0;
  hit(): Promise<WindowCount> {
    this.calls++;
    return new Promise(() => {});
  }
  peek(): Promise<WindowCount> {
    return new Promise(() => {});
  }
  async close(): Promise<void> {}
}

describe('the limits when the shared counter hangs', () => {
  it('fail open for a read after the timeout (counted in process), closed (503) for money and e-mail', async () => {
    const counter = new ResilientWindowCounter(new HangingCounter(), () => {}, { timeoutMs: 50 });
    const started = Date.now();
    const open = new WindowLimiter(counter, 'read', 2, 60_000);
    expect(await open.take('a')).toBe(0);
    expect(await open.take('a')).toBe(0);
    // Still limited, in process.
    expect(await open.take('a')).toBeGreaterThan(0);
    const closed = new WindowLimiter(counter, 'mail', 100, 60_000, { failClosed: true });
    await expect(closed.take('a')).rejects.toMatchObject({ code: 'limits_unavailable', statusCode: 503 });
    // Four hits, each given up after ~50 ms, not a second each.
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('routes when the shared counter hangs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      limits: new ResilientWindowCounter(new HangingCounter(), () => {}, { timeoutMs: 60 }),
    });
  });
  afterAll(async () => t.app.close());

  it('answers a catalogue read quickly (fail open)', async () => {
    const started = Date.now();
    const response = await t.app.inject({ method: 'GET', url: '/api/bots/available' });
    expect(response.statusCode).toBe(200);
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('refuses a mail-sending route with 503 limits_unavailable and Retry-After (fail closed)', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/password_reset',
      payload: { email: 'someone@example.test' },
    });
    expect(response.statusCode).toBe(503);
    expect(response.json().code).toBe('limits_unavailable');
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('refuses a money route with 503 (fail closed)', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const response = await t.app.inject({ method: 'POST', url: '/api/profile/claim_desires', headers: auth });
    expect(response.statusCode).toBe(503);
    expect(response.json().code).toBe('limits_unavailable');
  });
});
