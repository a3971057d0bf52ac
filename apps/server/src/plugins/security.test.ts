import http from 'node:http';
import type { AddressInfo } from 'node:net';
import helmet from 'helmet';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers.js';
import { helmetHeaders } from './security.js';

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

describe('the security headers', () => {
  /** The headers of one answer of a bare node:http server running `handle`. */
  const answerOf = async (handle: http.RequestListener) => {
    const server = http.createServer(handle);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/`);
      return Object.fromEntries(
        [...response.headers].filter(
          ([name]) => !['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name),
        ),
      );
    } finally {
      server.close();
    }
  };

  it('worked out once are those helmet itself sets on a response', async () => {
    const options = {
      contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], upgradeInsecureRequests: null } },
      strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    };
    const middleware = helmet(options);
    const byHelmet = await answerOf((req, res) => middleware(req, res, () => res.end()));
    const { set, removed } = helmetHeaders(options);
    expect(removed).toContain('X-Powered-By');
    const byList = await answerOf((_req, res) => {
      for (const [name, value] of set) res.setHeader(name, value);
      res.end();
    });
    expect(byList).toEqual(byHelmet);
    expect(byList['content-security-policy']).toMatch(/^default-src 'self';/);
  });

  it("are on the app's answers: API, probe and 404", async () => {
    for (const url of ['/api/bots/available', '/api/health', '/api/no-such-route']) {
      const res = await t.app.inject({ url, remoteAddress: '10.42.9.9' });
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    }
  });
});
