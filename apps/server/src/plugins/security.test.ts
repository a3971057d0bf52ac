import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3' } });
});

describe('the global per-address limit', () => {
  it('answers 429 before any other work: no token check, no body parsing, no route', async () => {
    const ip = '10.42.0.1';
    for (let i = 0; i < 3; i++)
      expect((await t.app.inject({ url: '/api/bots/available', remoteAddress: ip })).statusCode).toBe(200);
    // A token that would be refused (401) and a body that would not parse (400): the limit speaks first.
    const withToken = await t.app.inject({
      url: '/api/bots/mine',
      remoteAddress: ip,
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(withToken.statusCode).toBe(429);
    expect(withToken.json().code).toBe('rate_limited');
    expect(Number(withToken.headers['retry-after'])).toBeGreaterThan(0);
    const badBody = await t.app.inject({
      method: 'POST',
      url: '/api/bot/create',
      remoteAddress: ip,
      headers: { 'content-type': 'application/json' },
      payload: '{"not json',
    });
    expect(badBody.statusCode).toBe(429);
    // Probes are never limited; another address is not held back.
    expect((await t.app.inject({ url: '/api/health', remoteAddress: ip })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/bots/available', remoteAddress: '10.42.0.2' })).statusCode).toBe(200);
  });
});
