import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { clearSession, setTokens } from '../../lib/session';
import { seedProfile, testProfile } from '../../test/profile';
import { chat, fakeApi, json, renderRoutes, type Call } from '../../features/chat/test-helpers';
import { Component as Audio } from './audio';

const profile = testProfile();

const config = (calls?: unknown) =>
  json({
    edition: 'reverie',
    community_url: null,
    support_email: 'help@example.test',
    rewardful_key: null,
    calls: calls ?? { available: true, reason: null },
  });

const signIn = () => {
  setTokens('a.b.c', 'd.e.f');
  seedProfile(profile);
};

/** The API of a member's call page: the chat, the config, and the token answered by `token`. */
function memberApi(token: (call: Call) => Response, calls?: unknown) {
  return fakeApi((call) => {
    if (call.path === '/api/config') return config(calls);
    if (call.path === '/api/chat/c1') return json(chat());
    if (call.path === '/api/audio_chat/token') return token(call);
    return undefined;
  });
}

const open = (path: string) => renderRoutes([{ path: '/audio', element: <Audio /> }], path);

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => clearSession());

describe('/audio', () => {
  it('lists the user’s chats to call when opened without one', async () => {
    signIn();
    fakeApi((call) =>
      call.path === '/api/chats/available'
        ? json([
            chat(),
            chat({ id: 'c2', title: 'Rainy day', bot: { ...chat().bot, id: 'b2', slug: 'mira', name: 'Mira' } }),
          ])
        : undefined,
    );
    open('/audio');
    const list = await screen.findByTestId('call-picker');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Call a character');
    const links = [...list.querySelectorAll('a')].map((a) => [a.getAttribute('aria-label'), a.getAttribute('href')]);
    expect(links).toEqual([
      ['Call Aiko', '/audio?chat=c1'],
      ['Call Mira', '/audio?chat=c2'],
    ]);
  });

  it('says so, with a way to find someone, when there are no chats yet', async () => {
    signIn();
    fakeApi((call) => (call.path === '/api/chats/available' ? json([]) : undefined));
    open('/audio');
    expect((await screen.findByTestId('call-picker-empty')).textContent).toContain(
      "You haven't chatted with anyone yet",
    );
  });

  it('asks a guest to sign up, coming back to the call afterwards', async () => {
    fakeApi(() => undefined);
    const router = open('/audio?chat=c1');
    await waitFor(() => expect(router.state.location.search).toContain('signup=1'));
    expect(new URLSearchParams(router.state.location.search).get('next')).toBe('/audio?chat=c1');
    expect(screen.getByTestId('call-problem').getAttribute('data-failure')).toBe('sign_in');
    expect(screen.getByRole('button', { name: 'Sign up to call' })).toBeTruthy();
  });

  it('402: explains that calls are premium, opens the premium offer, and offers the upgrade', async () => {
    signIn();
    const calls = memberApi(() => json({ detail: 'Premium required', code: 'premium_required' }, 402));
    const router = open('/audio?chat=c1');
    const problem = await screen.findByTestId('call-problem');
    expect(problem.getAttribute('data-failure')).toBe('premium_required');
    expect(problem.textContent).toContain('Calls are part of Premium');
    expect(problem.textContent).toContain('Talk with Aiko out loud');
    expect(screen.getByRole('button', { name: 'Get Premium' })).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toContain('premium=1'));
    expect(new URLSearchParams(router.state.location.search).get('from')).toBe('call');
    expect(calls.find((c) => c.path === '/api/audio_chat/token')?.body).toEqual({ chat_id: 'c1' });
    expect(screen.getByTestId('call-name').textContent).toBe('Aiko');
  });

  it.each([
    [409, 'call_in_progress', "You're already in a call", 'Hang up there, then try again.'],
    [503, 'stt_unavailable', "Calls aren't available right now", 'keep chatting by text'],
    [404, 'not_found', 'Chat not found', 'Choose someone else to call.'],
  ] as const)('%i %s: a clear explanation with what to do', async (status, code, title, what) => {
    signIn();
    memberApi(() => json({ detail: code, code }, status));
    open('/audio?chat=c1');
    const problem = await screen.findByTestId('call-problem');
    expect(problem.getAttribute('data-failure')).toBe(code);
    expect(problem.querySelector('h2')?.textContent).toBe(title);
    expect(problem.textContent).toContain(what);
  });

  it('429: no call time left today, and when calling is possible again', async () => {
    signIn();
    memberApi(() =>
      json({ detail: 'No minutes left', code: 'call_minutes_exhausted' }, 429, { 'Retry-After': '5400' }),
    );
    open('/audio?chat=c1');
    const problem = await screen.findByTestId('call-problem');
    expect(problem.querySelector('h2')?.textContent).toBe('No call time left today');
    const at = new Intl.DateTimeFormat('en', { hour: 'numeric', minute: '2-digit' }).format(
      new Date(Date.now() + 5400_000),
    );
    expect(problem.textContent).toContain(`You can call again at ${at}.`);
  });

  it('409 stt_unavailable with the reason: explains that reason (not "already in a call")', async () => {
    signIn();
    memberApi(() => json({ detail: 'x', code: 'stt_unavailable', errors: { reason: ['stt_model_unavailable'] } }, 409));
    open('/audio?chat=c1');
    const problem = await screen.findByTestId('call-problem');
    expect(problem.getAttribute('data-failure')).toBe('stt_model_unavailable');
    expect(problem.textContent).toContain("The speech recognition model isn't on this server");
  });

  it.each([
    ['stt_model_unavailable', "can't be downloaded"],
    ['stt_provider_unreachable', "The speech recognition service isn't answering"],
    ['stt_disabled', "Speech recognition isn't set up here"],
  ] as const)('the server says calls are unavailable (%s): the reason, before any token', async (reason, text) => {
    signIn();
    const calls = memberApi(() => json({}, 500), { available: false, reason });
    open('/audio?chat=c1');
    const problem = await screen.findByTestId('call-problem');
    expect(problem.getAttribute('data-failure')).toBe(reason);
    expect(problem.textContent).toContain(text);
    expect(problem.textContent).toContain('Aiko');
    expect(calls.some((c) => c.path === '/api/audio_chat/token')).toBe(false);
  });

  it('does not ask for a token when the server says calls are unavailable', async () => {
    signIn();
    const calls = memberApi(() => json({}, 500), { available: false, reason: 'stt_unavailable' });
    open('/audio?chat=c1');
    expect((await screen.findByTestId('call-problem')).getAttribute('data-failure')).toBe('stt_unavailable');
    expect(calls.some((c) => c.path === '/api/audio_chat/token')).toBe(false);
  });

  it('calls by slug when there is no chat yet', async () => {
    signIn();
    const calls = fakeApi((call) => {
      if (call.path === '/api/config') return config();
      if (call.path === '/api/bot/aiko') return json({ ...chat().bot, gallery: [] });
      if (call.path === '/api/audio_chat/token') return json({ detail: 'x', code: 'premium_required' }, 402);
      return undefined;
    });
    open('/audio?slug=aiko');
    await screen.findByTestId('call-problem');
    expect(calls.find((c) => c.path === '/api/audio_chat/token')?.body).toEqual({ slug: 'aiko' });
  });
});
