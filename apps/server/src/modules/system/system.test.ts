import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/helpers.js';

describe('system routes', async () => {
  const { app } = await createTestApp({
    env: { APP_NAME: 'amoura', COMMUNITY_URL: 'https://chat.example/amoura', STT_PROVIDER: 'none' },
  });

  it('answers liveness', async () => {
    const res = await app.inject('/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', version: expect.any(String) });
  });

  it('is ready once migrated, with a trailing slash too', async () => {
    for (const url of ['/api/ready', '/api/ready/']) {
      const res = await app.inject(url);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ready', checks: { database: true, migrations: true } });
    }
  });

  it('gives the web app its edition settings', async () => {
    const res = await app.inject('/api/config');
    expect(res.json()).toEqual({
      edition: 'amoura',
      community_url: 'https://chat.example/amoura',
      support_email: 'support@amoura.app',
      rewardful_key: null,
      calls: { available: false, reason: 'stt_disabled' },
      // MODERATION_AUTO_APPROVE is off (and the rules judge cannot auto-approve).
      auto_approve_characters: false,
    });
  });

  it('publishes OpenAPI generated from the schemas, and a docs UI', async () => {
    const spec = (await app.inject('/api/openapi.json')).json();
    expect(spec.openapi).toBe('3.1.0');
    expect(spec.info.title).toBe('Amoura API');
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining(['/api/health', '/api/ready', '/api/analytics/events', '/api/blog', '/api/blog/{id}']),
    );
    const docs = await app.inject('/api/docs');
    expect([200, 302]).toContain(docs.statusCode);
    const page = await app.inject(
      docs.statusCode === 302 ? String(docs.headers.location).replace(/^(?!\/)/, '/api/') : '/api/docs',
    );
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
  });

  it('exposes Prometheus metrics including request counts', async () => {
    await app.inject('/api/health');
    const res = await app.inject('/metrics');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toMatch(/http_requests_total\{method="GET",route="\/api\/health",status_code="200"\} \d+/);
    expect(res.body).toContain('process_cpu_seconds_total');
  });

  it('answers unknown API paths with the error shape, translated by Accept-Language', async () => {
    const res = await app.inject({ url: '/api/nothing-here', headers: { 'accept-language': 'de-DE,de;q=0.9' } });
    expect(res.statusCode).toBe(404);
    const body = res.json();
    expect(body.code).toBe('not_found');
    expect(body.detail).not.toBe('Not found');
    expect(typeof body.detail).toBe('string');
  });

  it('sends security headers', async () => {
    const res = await app.inject('/api/health');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-frame-options']).toBeDefined();
  });
});

describe('CORS for a separately hosted web app', async () => {
  const { app } = await createTestApp({ env: { WEB_ORIGIN: 'https://app.example.com' } });

  it('allows the configured origin, with the bearer and language headers', async () => {
    const res = await app.inject({
      method: 'OPTIONS',
      url: '/api/blog',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization,accept-language',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');
  });

  it('does not allow other origins', async () => {
    const res = await app.inject({ url: '/api/health', headers: { origin: 'https://evil.example' } });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('affiliate tracking', async () => {
  const { app } = await createTestApp({ env: { REWARDFUL_API_KEY: 'rw_key' } });
  it('hands the key to the web app and allows its script origin', async () => {
    expect((await app.inject('/api/config')).json().rewardful_key).toBe('rw_key');
    const csp = String((await app.inject('/api/health')).headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self' https:\/\/r\.wdfl\.co/);
  });
});
