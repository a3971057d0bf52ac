import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadProfile } from './auth-flow';
import { clearSession, getSession, setTokens } from '../../lib/session';

const profile = { id: 'u1', email: 'a@example.test' };

/** Answers each call with the next entry: a status, or 'network' for a request with no answer. */
function fakeFetch(answers: (number | 'network')[]) {
  let calls = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      const answer = answers[Math.min(calls++, answers.length - 1)]!;
      if (answer === 'network') throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify(answer < 400 ? profile : { detail: 'nope', code: 'x' }), {
        status: answer,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return () => calls;
}

describe('loading the profile', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    clearSession();
  });

  it('keeps the tokens when the request gets no answer, and loads the profile once it does', async () => {
    vi.useFakeTimers();
    const calls = fakeFetch(['network', 'network', 'network', 200]);
    setTokens('a.b.c', 'd.e.f');
    const done = loadProfile();
    await vi.runAllTimersAsync();
    const loaded = await done;
    expect(calls()).toBeGreaterThanOrEqual(4);
    expect(getSession().accessToken).toBe('a.b.c');
    expect(loaded).toMatchObject({ id: 'u1' });
  });

  it('clears the tokens when the server refuses with another error', async () => {
    fakeFetch([403]);
    setTokens('a.b.c', 'd.e.f');
    expect(await loadProfile()).toBeNull();
    expect(getSession().accessToken).toBeNull();
    expect(getSession().refreshToken).toBeNull();
  });
});

describe('a signed-in request that meets a 401', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    clearSession();
  });

  /** /api/token/refresh answers `refreshStatus`; /api/thing answers 401 to the old token. */
  function server(refreshStatus: number) {
    const seen: { url: string; auth: string | null }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = String(input);
        const auth = new Headers(init?.headers).get('authorization');
        seen.push({ url, auth });
        const json = (status: number, body: unknown) =>
          new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
        if (url.endsWith('/api/token/refresh'))
          return refreshStatus === 200
            ? json(200, { access: 'new.access.t', refresh: 'new.refresh.t' })
            : json(401, {});
        return auth === 'Bearer new.access.t' ? json(200, { ok: true }) : json(401, { code: 'unauthorized' });
      }),
    );
    return seen;
  }

  it('refreshes the tokens once and repeats the request', async () => {
    const { request } = await import('../../lib/api-client');
    const seen = server(200);
    setTokens('old.access.t', 'old.refresh.t');
    await expect(request('/api/thing')).resolves.toEqual({ ok: true });
    expect(seen.map((s) => s.url.replace(/^.*\/api/, '/api'))).toEqual([
      '/api/thing',
      '/api/token/refresh',
      '/api/thing',
    ]);
    expect(getSession().accessToken).toBe('new.access.t');
  });

  it('signs out when the refresh is refused', async () => {
    const { request } = await import('../../lib/api-client');
    server(401);
    setTokens('old.access.t', 'old.refresh.t');
    await expect(request('/api/thing')).rejects.toMatchObject({ status: 401 });
    expect(getSession().accessToken).toBeNull();
  });
});
