import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AlertStack } from '../components/ui/alerts';
import { logout } from '../features/auth';
import { useAuthBootstrap } from '../features/auth/hooks/use-auth-bootstrap';
import { DailyClaim } from '../features/billing/components/daily-claim';
import DesiresModal from '../features/billing/components/desires-modal';
import { ChatPicture } from '../features/media';
import { initI18n } from '../lib/i18n';
import { profileKeys } from '../lib/query-keys';
import { clearSession, setTokens } from '../lib/session';
import { loadedProfile, seedProfile, testQueryClient, testProfile } from '../test/profile';
import { TopBar } from './layout/top-bar';
import { AppProviders } from '../lib/providers';

const profile = testProfile;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const modalProps = { onClose: () => {}, from: null, next: null, switchTo: () => {}, requireAuth: () => {} };
const blurred = { id: 'm1', kind: 3 as const, img_url: '/api/media/chats/u1/preview.webp?exp=1&sig=a' };

/** Every place that shows the balance at once: the top bar's counter and the desires modal. */
function renderEverywhere() {
  const client = testQueryClient();
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <>
            <TopBar onOpenMenu={() => {}} />
            <DailyClaim />
            <ChatPicture message={blurred} />
            <DesiresModal {...modalProps} />
          </>
        ),
      },
    ],
    { initialEntries: ['/'] },
  );
  render(
    <AppProviders client={client}>
      <RouterProvider router={router} />
      <AlertStack />
    </AppProviders>,
  );
  return client;
}

function Bootstrap() {
  useAuthBootstrap();
  return null;
}

const counter = () => screen.getByTestId('balance').getAttribute('aria-label') ?? '';
const modalBalance = async () => (await screen.findByTestId('desires-modal')).textContent ?? '';

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => clearSession());

describe('the profile query: one balance for every place that shows it', () => {
  it('an unblur and a daily claim change the balance in the top bar and the desires modal', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(profile({ num_tokens: 10 }));
    const nextAt = new Date(Date.now() + 24 * 3600_000).toISOString();
    globalThis.fetch = async (input: RequestInfo | URL) => {
      const path = new URL(String(input instanceof Request ? input.url : input), 'http://x').pathname;
      if (path === '/api/unblur/image/m1') return json({ img_url: '/api/media/chats/u1/original.png', num_tokens: 7 });
      if (path === '/api/profile/claim_desires') return json({ claimed: true, next_at: nextAt, num_tokens: 107 });
      return json({ detail: 'Not found', code: 'not_found' }, 404);
    };
    renderEverywhere();
    await waitFor(() => expect(counter()).toBe('My balance: 10 desires'));
    expect(await modalBalance()).toMatch(/balance\s*10(?!\d)/i);

    fireEvent.click(screen.getByTestId('unblur-button'));
    await screen.findByTestId('chat-picture');
    await waitFor(() => expect(counter()).toBe('My balance: 7 desires'));
    expect(await modalBalance()).toMatch(/balance\s*7(?!\d)/i);

    fireEvent.click(await screen.findByTestId('claim-button'));
    fireEvent.click(await screen.findByTestId('claim-confirm'));
    await waitFor(() => expect(counter()).toBe('My balance: 107 desires'));
    expect(await modalBalance()).toMatch(/balance\s*107(?!\d)/i);
    expect(loadedProfile()).toMatchObject({ num_tokens: 107, next_claim_at: nextAt });
  });

  it('the bootstrap loads it for the token, and again for a new token of the session', async () => {
    const balances = [5, 6];
    const seen: string[] = [];
    globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = new URL(String(input instanceof Request ? input.url : input), 'http://x').pathname;
      if (path !== '/api/profile') return json({ detail: 'Not found', code: 'not_found' }, 404);
      seen.push(new Headers(init?.headers).get('authorization') ?? '');
      return json(profile({ num_tokens: balances[Math.min(seen.length - 1, balances.length - 1)] }));
    };
    setTokens('first.access.t', 'first.refresh.t');
    const client = testQueryClient();
    const router = createMemoryRouter(
      [
        {
          path: '*',
          element: (
            <>
              <Bootstrap />
              <TopBar onOpenMenu={() => {}} />
            </>
          ),
        },
      ],
      { initialEntries: ['/'] },
    );
    render(
      <AppProviders client={client}>
        <RouterProvider router={router} />
      </AppProviders>,
    );
    await waitFor(() => expect(counter()).toBe('My balance: 5 desires'));
    act(() => setTokens('second.access.t', 'second.refresh.t'));
    // The loaded balance stays while the new token loads it again.
    expect(counter()).toBe('My balance: 5 desires');
    await waitFor(() => expect(counter()).toBe('My balance: 6 desires'));
    expect(seen).toEqual(['Bearer first.access.t', 'Bearer second.access.t']);
  });

  it('log-out drops the profile: no balance is shown and the query is gone', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(profile({ num_tokens: 42 }));
    const client = renderEverywhere();
    await waitFor(() => expect(counter()).toBe('My balance: 42 desires'));
    await act(() => logout());
    expect(screen.queryByTestId('balance')).toBeNull();
    expect(within(await screen.findByTestId('desires-modal')).queryByText('42')).toBeNull();
    expect(client.getQueryData(profileKeys.me())).toBeUndefined();
    expect(loadedProfile()).toBeUndefined();
  });

  it('a log-out in another tab drops it here too', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(profile({ num_tokens: 42 }));
    const client = renderEverywhere();
    await waitFor(() => expect(counter()).toBe('My balance: 42 desires'));
    const otherTab = new BroadcastChannel('reverie-session');
    try {
      otherTab.postMessage({ type: 'cleared', reason: 'logout' });
      await waitFor(() => expect(screen.queryByTestId('balance')).toBeNull());
      expect(client.getQueryData(profileKeys.me())).toBeUndefined();
    } finally {
      otherTab.close();
    }
  });
});
