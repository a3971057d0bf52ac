import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadProfile } from './auth-flow';
import { clearSession, getSession, setTokens } from './session';

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
    await done;
    expect(calls()).toBeGreaterThanOrEqual(4);
    expect(getSession().accessToken).toBe('a.b.c');
    expect(getSession().profile).toMatchObject({ id: 'u1' });
  });

  it('clears the tokens when the server refuses with another error', async () => {
    fakeFetch([403]);
    setTokens('a.b.c', 'd.e.f');
    await loadProfile();
    expect(getSession().accessToken).toBeNull();
    expect(getSession().refreshToken).toBeNull();
  });
});
