import { afterEach, describe, expect, it, vi } from 'vitest';
import { request } from './api-client';
import { setTokens, clearSession } from '../features/auth/session';
import { initI18n, i18n } from './i18n';

function fakeFetch(statuses: number[]) {
  const calls: Request[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push(new Request(new URL(String(input), 'http://localhost'), init));
    const status = statuses[Math.min(calls.length - 1, statuses.length - 1)]!;
    return new Response(JSON.stringify(status < 400 ? { ok: true } : { detail: 'nope', code: 'x' }), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

describe('API client', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    clearSession();
  });

  it('retries a reading request once on the specification statuses', async () => {
    for (const status of [408, 409, 425, 429, 500, 502, 503, 504]) {
      const calls = fakeFetch([status, 200]);
      await expect(request('/api/thing')).resolves.toEqual({ ok: true });
      expect(calls, String(status)).toHaveLength(2);
    }
  });

  it('does not retry data-changing methods or other statuses', async () => {
    const post = fakeFetch([503, 200]);
    await expect(request('/api/thing', { method: 'POST', body: {} })).rejects.toMatchObject({ status: 503, code: 'x' });
    expect(post).toHaveLength(1);
    const notFound = fakeFetch([404, 200]);
    await expect(request('/api/thing')).rejects.toMatchObject({ status: 404 });
    expect(notFound).toHaveLength(1);
  });

  it('sends the language and, when authorized, the bearer token', async () => {
    const calls = fakeFetch([200]);
    setTokens('a.b.c', 'd.e.f');
    await request('/api/thing');
    expect(calls[0]!.headers.get('authorization')).toBe('Bearer a.b.c');
    expect(calls[0]!.headers.get('accept-language')).toMatch(/^(en|ch|es|de|ru)$/);
  });
});

describe('translations', () => {
  it('falls back to English, then to the key', async () => {
    await initI18n('en');
    i18n.addResourceBundle('de', 'translation', { nav: { explore: 'Entdecken' } }, true, true);
    await i18n.changeLanguage('de');
    expect(i18n.t('nav.explore')).toBe('Entdecken');
    expect(i18n.t('nav.chats')).toBe('Chats');
    expect(i18n.t('no.such.key')).toBe('no.such.key');
  });
});
