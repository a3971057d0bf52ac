import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '@reverie/shared';
import { AppProviders } from '../lib/providers';
import { routes } from './router';
import { clearSession, getSession } from '../lib/session';

/** The server: the session ended, so the profile and the refresh answer 401; the rest 404. */
function endedSessionServer() {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input instanceof Request ? input.url : input);
      calls.push(new URL(url, 'http://localhost').pathname);
      const status = /\/api\/(profile|token\/refresh)\b/.test(url) ? 401 : 404;
      return new Response(JSON.stringify({ detail: 'no', code: status === 401 ? 'unauthorized' : 'not_found' }), {
        status,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return calls;
}

describe('a session that ended on the server', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    clearSession();
  });

  it('Settings does not wait forever: the login modal opens with a message, back to Settings after', async () => {
    const calls = endedSessionServer();
    window.localStorage.setItem('age_confirmed', '1');
    window.localStorage.setItem(STORAGE_KEYS.accessToken, 'ended.access.t');
    window.localStorage.setItem(STORAGE_KEYS.refreshToken, 'ended.refresh.t');
    // The session module read storage at import: start from the stored pair like a page load.
    const { adoptTokens } = await import('../lib/session');
    adoptTokens('ended.access.t', 'ended.refresh.t');
    const router = createMemoryRouter(routes, { initialEntries: ['/settings'] });
    render(
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>,
    );
    expect(await screen.findByText('Your session has ended. Please log in again.', {}, { timeout: 4000 })).toBeTruthy();
    await vi.waitFor(() => expect(router.state.location.search).toBe('?login=1&next=%2Fsettings'), { timeout: 5000 });
    expect(router.state.location.pathname).toBe('/');
    expect(await screen.findByTestId('login-form', {}, { timeout: 4000 })).toBeTruthy();
    expect(getSession()).toMatchObject({ accessToken: null, refreshToken: null });
    expect(window.localStorage.getItem(STORAGE_KEYS.refreshToken)).toBeNull();
    expect(calls.filter((path) => path === '/api/token/refresh')).toHaveLength(1);
  });
});
