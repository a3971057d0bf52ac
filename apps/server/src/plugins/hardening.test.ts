import { describe, expect, it } from 'vitest';
import { createLoggedApp } from '../../test/log-capture.js';
import { createTestApp } from '../../test/helpers.js';

const DATA_DIR = `/tmp/reverie-hardening-test-${process.pid}`;

describe('the PUBLIC_URL host warning', () => {
  const warnings = (log: { entries(): Record<string, unknown>[] }) =>
    log.entries().filter((e) => String(e.msg).startsWith('PUBLIC_URL is '));

  it('appears once when requests arrive for another host', async () => {
    const { app, log, close } = await createLoggedApp({ env: { PUBLIC_URL: 'https://chat.example.com' } });
    try {
      await app.inject({ url: '/api/health', headers: { host: '10.0.0.7:3000' } }); // probes are skipped
      expect(warnings(log)).toHaveLength(0);
      await app.inject({ url: '/api/bots/available', headers: { host: 'reverie.internal:3000' } });
      await app.inject({ url: '/api/bots/available', headers: { host: 'other.example.org' } });
      await app.inject({ url: '/api/bots/available', headers: { host: 'reverie.internal:3000' } });
      const found = warnings(log);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({
        level: 40,
        public_url: 'https://chat.example.com',
        request_host: 'reverie.internal:3000',
      });
      expect(String(found[0]!.msg)).toContain('e-mails');
    } finally {
      await close();
    }
  });

  it('is given for the right host name reached by another scheme, even after that host was seen right', async () => {
    const { app, log, close } = await createLoggedApp({
      env: { PUBLIC_URL: 'https://chat.example.com', TRUST_PROXY: 'true' },
    });
    try {
      const proxied = (proto: string) =>
        app.inject({ url: '/api/bots/available', headers: { host: 'chat.example.com', 'x-forwarded-proto': proto } });
      await proxied('https');
      await proxied('https');
      expect(warnings(log)).toHaveLength(0);
      await proxied('http'); // the same name on port 80: not PUBLIC_URL's
      expect(warnings(log)).toHaveLength(1);
    } finally {
      await close();
    }
  });

  it('is silent for the right host, behind a trusted proxy, and for loopback against loopback', async () => {
    const proxied = await createLoggedApp({ env: { PUBLIC_URL: 'https://chat.example.com', TRUST_PROXY: 'true' } });
    try {
      await proxied.app.inject({
        url: '/api/bots/available',
        headers: { host: '10.0.0.7:3000', 'x-forwarded-host': 'chat.example.com', 'x-forwarded-proto': 'https' },
      });
      await proxied.app.inject({ url: '/api/bots/available', headers: { host: 'chat.example.com:443' } });
      expect(warnings(proxied.log)).toHaveLength(0);
      // Without TRUST_PROXY the forwarded host does not count.
      const direct = await createLoggedApp({ env: { PUBLIC_URL: 'https://chat.example.com' } });
      await direct.app.inject({
        url: '/api/bots/available',
        headers: { host: '10.0.0.7:3000', 'x-forwarded-host': 'chat.example.com' },
      });
      expect(warnings(direct.log)).toHaveLength(1);
      await direct.close();
    } finally {
      await proxied.close();
    }
    const local = await createLoggedApp({ env: { PUBLIC_URL: 'http://localhost:3000' } });
    try {
      await local.app.inject({ url: '/api/bots/available', headers: { host: '127.0.0.1:3000' } });
      await local.app.inject({ url: '/api/bots/available', headers: { host: 'localhost:5173' } });
      expect(warnings(local.log)).toHaveLength(0);
      await local.app.inject({ url: '/api/bots/available', headers: { host: '192.168.1.20:3000' } });
      expect(warnings(local.log)).toHaveLength(1);
    } finally {
      await local.close();
    }
  });
});

describe("each request's logger", () => {
  it('binds the request id and redacts as the root logger does', async () => {
    const { app, log, close } = await createLoggedApp({
      extend: (scope) =>
        scope.get('/test/request-log', async (request) => {
          request.log.info({ user: { email: 'a@example.com', token: 'secret-token' } }, 'request log line');
          return { ok: true };
        }),
    });
    try {
      await app.inject({ url: '/test/request-log', headers: { 'x-request-id': 'req-fixed-1' } });
      const line = log.entries().find((entry) => entry.msg === 'request log line');
      expect(line).toMatchObject({ reqId: 'req-fixed-1', level: 30 });
      expect(JSON.stringify(line)).not.toContain('secret-token');
      expect(JSON.stringify(line)).not.toContain('a@example.com');
      // Debug lines of the request pass at the app's level (debug in this app).
      expect(log.entries().some((entry) => entry.reqId === 'req-fixed-1' && entry.msg === 'incoming request')).toBe(
        true,
      );
    } finally {
      await close();
    }
  });
});

describe('/metrics', () => {
  const metrics = (app: Awaited<ReturnType<typeof createTestApp>>['app'], token?: string) =>
    app.inject({ url: '/metrics', headers: token ? { authorization: `Bearer ${token}` } : {} });

  it('is refused in production without a token, open when named public', async () => {
    const closed = await createTestApp({ env: { NODE_ENV: 'production', DATA_DIR } });
    expect((await metrics(closed.app)).statusCode).toBe(404);
    const open = await createTestApp({ env: { NODE_ENV: 'production', DATA_DIR, METRICS_PUBLIC: 'true' } });
    expect((await metrics(open.app)).statusCode).toBe(200);
  });

  it('needs the token in production when one is set', async () => {
    const { app } = await createTestApp({
      env: { NODE_ENV: 'production', DATA_DIR, METRICS_TOKEN: 'metrics-secret-1' },
    });
    expect((await metrics(app)).statusCode).toBe(401);
    expect((await metrics(app, 'wrong')).statusCode).toBe(401);
    const ok = await metrics(app, 'metrics-secret-1');
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('http_requests_total');
  });

  it('stays open in development and tests', async () => {
    const { app } = await createTestApp({ env: { NODE_ENV: 'development', DATA_DIR } });
    expect((await metrics(app)).statusCode).toBe(200);
  });
});

describe('Strict-Transport-Security', () => {
  it('is sent when PUBLIC_URL is https, not when it is http', async () => {
    const https = await createTestApp({ env: { PUBLIC_URL: 'https://chat.example.com' } });
    const res = await https.app.inject({ url: '/api/health', headers: { host: 'chat.example.com' } });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const http = await createTestApp({ env: { PUBLIC_URL: 'http://localhost:3000' } });
    expect((await http.app.inject({ url: '/api/health' })).headers['strict-transport-security']).toBeUndefined();
  });
});
