import { afterEach, describe, expect, it, vi } from 'vitest';
import { fileForm, request } from './api-client';
import { setTokens, clearSession } from './session';
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

  it('retries a reading request once after a network failure, never an aborted one', async () => {
    let calls = 0;
    vi.stubGlobal('fetch', async () => {
      calls += 1;
      if (calls === 1) throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify({ ok: true }), { headers: { 'content-type': 'application/json' } });
    });
    await expect(request('/api/thing')).resolves.toEqual({ ok: true });
    expect(calls).toBe(2);
    calls = 0;
    vi.stubGlobal('fetch', async () => {
      calls += 1;
      throw new DOMException('aborted', 'AbortError');
    });
    await expect(request('/api/thing')).rejects.toMatchObject({ status: 0 });
    expect(calls).toBe(1);
  });

  it('honours retry: 0 on a reading request', async () => {
    const calls = fakeFetch([503, 200]);
    await expect(request('/api/thing', { retry: 0 })).rejects.toMatchObject({ status: 503 });
    expect(calls).toHaveLength(1);
  });

  it('sends objects as JSON, FormData as it is, and the query without undefined values', async () => {
    const calls = fakeFetch([200]);
    await request('/api/thing', { method: 'post', body: { a: 1 }, query: { size: 30, c: 'x y&z', skip: undefined } });
    expect(calls[0]!.method).toBe('POST');
    expect(new URL(calls[0]!.url).pathname).toBe('/api/thing');
    expect(Object.fromEntries(new URL(calls[0]!.url).searchParams)).toEqual({ size: '30', c: 'x y&z' });
    expect(calls[0]!.headers.get('content-type')).toBe('application/json');
    expect(calls[0]!.headers.get('accept')).toBe('application/json');
    expect(await calls[0]!.text()).toBe('{"a":1}');
    const form = new FormData();
    form.set('name', 'Ann');
    const sent: RequestInit[] = [];
    vi.stubGlobal('fetch', async (_input: RequestInfo | URL, init?: RequestInit) => {
      sent.push(init!);
      return new Response(null, { status: 204 });
    });
    await expect(request('/api/thing', { method: 'POST', body: form })).resolves.toBeUndefined();
    expect(sent[0]!.body).toBe(form);
    expect(new Headers(sent[0]!.headers).has('content-type')).toBe(false);
  });

  it('returns text that is not JSON as text', async () => {
    vi.stubGlobal('fetch', async () => new Response('plain', { headers: { 'content-type': 'text/plain' } }));
    await expect(request('/api/thing')).resolves.toBe('plain');
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

describe('fileForm', () => {
  it('puts the fields first and the upload last, as `file`', () => {
    const file = new File(['x'], 'card.png', { type: 'image/png' });
    const form = fileForm(file, { visibility: 'private' });
    expect([...form.keys()]).toEqual(['visibility', 'file']);
    expect(form.get('visibility')).toBe('private');
    expect((form.get('file') as File).name).toBe('card.png');
  });
});
