import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '@reverie/shared';
import { request } from '../../lib/api-client';
import { logout, refreshAccessToken } from './auth-flow';
import { clearSession, getSession, setTokens } from '../../lib/session';

/**
 * A fake server: `/api/token/refresh` rotates `valid.refresh` (slowly, so concurrent callers
 * overlap), `/api/thing` answers 200 only to the current access token.
 */
function fakeServer(options: { refuse?: boolean } = {}) {
  const valid = { access: 'old.access.t', refresh: 'old.refresh.t' };
  const refreshes: string[] = [];
  const seen: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const json = (status: number, body: unknown) =>
        new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
      if (url.endsWith('/api/token/refresh')) {
        const body = JSON.parse(String(init?.body)) as { refresh: string };
        refreshes.push(body.refresh);
        await new Promise((resolve) => setTimeout(resolve, 20));
        if (options.refuse || body.refresh !== valid.refresh) return json(401, { code: 'invalid_token' });
        valid.access = `new${refreshes.length}.access.t`;
        valid.refresh = `new${refreshes.length}.refresh.t`;
        return json(200, { ...valid });
      }
      const auth = new Headers(init?.headers).get('authorization');
      seen.push(auth ?? '');
      return auth === `Bearer ${valid.access}` ? json(200, { ok: true }) : json(401, { code: 'unauthorized' });
    }),
  );
  return { valid, refreshes, seen };
}

/** A Web Locks stand-in: one holder at a time, in request order. */
function fakeLocks() {
  const names: string[] = [];
  let tail: Promise<unknown> = Promise.resolve();
  const locks = {
    request: vi.fn((name: string, _options: unknown, task: () => Promise<unknown>) => {
      names.push(name);
      const run = tail.then(() => task());
      tail = run.catch(() => undefined);
      return run;
    }),
  };
  vi.stubGlobal('navigator', { ...navigator, locks });
  return names;
}

/** Resolves once the refresh request has reached the (slow) fake server, before it answers. */
async function onTheWire(refreshes: string[]) {
  while (refreshes.length === 0) await new Promise((resolve) => setTimeout(resolve, 0));
}

describe('one refresh per browser', () => {
  beforeEach(() => {
    setTokens('old.access.t', 'old.refresh.t');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    clearSession();
  });

  it('concurrent 401s in one tab cause one refresh; every request is repeated with the new token', async () => {
    const server = fakeServer();
    const lockNames = fakeLocks();
    // The access token expires: the server now accepts only what a refresh gives.
    server.valid.access = 'expired';
    const results = await Promise.all([request('/api/thing'), request('/api/thing'), request('/api/thing')]);
    expect(results).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    expect(server.refreshes).toEqual(['old.refresh.t']);
    expect(lockNames).toEqual(['reverie-token-refresh']);
    expect(getSession()).toMatchObject({ accessToken: 'new1.access.t', refreshToken: 'new1.refresh.t' });
    expect(localStorage.getItem(STORAGE_KEYS.refreshToken)).toBe('new1.refresh.t');
  });

  it('a rotation by another tab is picked up after the lock: the used refresh token is not presented again', async () => {
    const server = fakeServer();
    fakeLocks();
    // Another tab refreshed: the server moved on and storage holds the new pair; this tab's
    // memory still has the old one.
    server.valid.access = 'tab2.access.t';
    server.valid.refresh = 'tab2.refresh.t';
    localStorage.setItem(STORAGE_KEYS.accessToken, 'tab2.access.t');
    localStorage.setItem(STORAGE_KEYS.refreshToken, 'tab2.refresh.t');
    expect(getSession().accessToken).toBe('old.access.t');

    expect(await request('/api/thing')).toEqual({ ok: true });
    expect(server.refreshes).toEqual([]);
    expect(server.seen).toEqual(['Bearer old.access.t', 'Bearer tab2.access.t']);
    expect(getSession()).toMatchObject({ accessToken: 'tab2.access.t', refreshToken: 'tab2.refresh.t' });
  });

  it('two tabs waiting on the lock: the second takes the first one’s pair (one refresh in all)', async () => {
    const server = fakeServer();
    fakeLocks();
    server.valid.access = 'expired';
    // The second "tab" is this tab's next refresh, queued behind the first while it holds the lock.
    const first = refreshAccessToken();
    const secondTab = navigator.locks.request('reverie-token-refresh', {}, async () => {
      // What the other tab finds once it holds the lock: storage already rotated.
      return localStorage.getItem(STORAGE_KEYS.refreshToken);
    });
    expect(await first).toBe(true);
    expect(await secondTab).toBe('new1.refresh.t');
    expect(server.refreshes).toHaveLength(1);
  });

  it('without the Web Locks API it still refreshes once per tab', async () => {
    const server = fakeServer();
    vi.stubGlobal('navigator', { ...navigator, locks: undefined });
    server.valid.access = 'expired';
    const results = await Promise.all([request('/api/thing'), request('/api/thing')]);
    expect(results).toEqual([{ ok: true }, { ok: true }]);
    expect(server.refreshes).toHaveLength(1);
  });

  it('hears the other tabs: their new pair, and a session that ended', async () => {
    const otherTab = new BroadcastChannel('reverie-session');
    try {
      otherTab.postMessage({ type: 'tokens', access: 'tab2.access.t', refresh: 'tab2.refresh.t' });
      await vi.waitFor(() => expect(getSession().accessToken).toBe('tab2.access.t'), { timeout: 5000 });
      expect(getSession().refreshToken).toBe('tab2.refresh.t');
      otherTab.postMessage({ type: 'cleared', reason: 'expired' });
      await vi.waitFor(() => expect(getSession().accessToken).toBeNull(), { timeout: 5000 });
      expect(getSession().expired).toBe(true);
    } finally {
      otherTab.close();
    }
  });

  it('a refused refresh ends the session as expired (the login modal opens with a message)', async () => {
    const server = fakeServer({ refuse: true });
    fakeLocks();
    server.valid.access = 'expired';
    await expect(request('/api/thing')).rejects.toMatchObject({ status: 401 });
    expect(getSession()).toMatchObject({ accessToken: null, refreshToken: null, expired: true });
    expect(localStorage.getItem(STORAGE_KEYS.refreshToken)).toBeNull();
  });

  it('a refresh that reaches no server keeps the tokens (offline is not a sign-out)', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        if (String(input).endsWith('/api/token/refresh')) throw new TypeError('Failed to fetch');
        return new Response(JSON.stringify({ code: 'unauthorized' }), {
          status: 401,
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
    fakeLocks();
    await expect(request('/api/thing')).rejects.toMatchObject({ status: 401 });
    expect(getSession()).toMatchObject({ accessToken: 'old.access.t', refreshToken: 'old.refresh.t', expired: false });
  });

  it('a log-out during a refresh wins: the refresh keeps nothing, the revocation goes out after it', async () => {
    const server = fakeServer();
    const lockNames = fakeLocks();
    const calls: string[] = [];
    const fetchMock = vi.mocked(fetch);
    const serve = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) => {
      calls.push(String(input).replace(/^.*\/api\//, '/api/'));
      return serve(input, init);
    });
    const refreshed = refreshAccessToken();
    // The refresh is on the wire when the user logs out.
    await onTheWire(server.refreshes);
    await logout();
    expect(await refreshed).toBe(false);
    expect(getSession()).toMatchObject({ accessToken: null, refreshToken: null });
    expect(localStorage.getItem(STORAGE_KEYS.refreshToken)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(calls).toEqual(['/api/token/refresh', '/api/token/revoke']);
    expect(lockNames).toEqual(['reverie-token-refresh', 'reverie-token-refresh']);
    expect(server.refreshes).toEqual(['old.refresh.t']);
  });

  it('another tab signing out during a refresh: this tab does not sign everyone back in', async () => {
    const server = fakeServer();
    fakeLocks();
    const refreshed = refreshAccessToken();
    await onTheWire(server.refreshes);
    // The other tab's log-out: storage cleared while this tab's refresh is on the wire.
    localStorage.removeItem(STORAGE_KEYS.accessToken);
    localStorage.removeItem(STORAGE_KEYS.refreshToken);
    expect(await refreshed).toBe(false);
    expect(getSession()).toMatchObject({ accessToken: null, refreshToken: null });
    expect(localStorage.getItem(STORAGE_KEYS.refreshToken)).toBeNull();
  });
});
