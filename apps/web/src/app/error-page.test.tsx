import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../lib/providers';
import { routes } from './router';
import { AlertStack, showAlert } from '../components/ui/alerts';

function renderAt(path: string) {
  window.localStorage.setItem('age_confirmed', '1');
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

describe('error page', () => {
  it('turns a page whose validity check fails into "Page Not Found: {path}"', async () => {
    renderAt('/Not_A_Valid_Slug');
    expect(await screen.findByText('Page Not Found: /Not_A_Valid_Slug')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Page Not Found' })).toBeTruthy();
  });

  it('says "Page not found: {path}" when no route matches', async () => {
    renderAt('/no/such/page');
    expect(await screen.findByText('Page not found: /no/such/page')).toBeTruthy();
  });

  it('redirects /undress to /transform without a router warning', async () => {
    const warn = vi.spyOn(console, 'warn');
    const router = renderAt('/undress?x=1');
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/transform'), { timeout: 5000 });
    expect(router.state.location.search).toBe('?x=1');
    const routerWarnings = warn.mock.calls.filter((call) => /route|undress/i.test(String(call[0])));
    warn.mockRestore();
    expect(routerWarnings).toEqual([]);
  });
});

describe('alerts', () => {
  afterEach(() => vi.useRealTimers());

  it('show success by default, close after 5000 ms and can be closed', async () => {
    vi.useFakeTimers();
    render(<AlertStack />);
    act(() => void showAlert('Saved'));
    const alert = screen.getByText('Saved').closest('[data-alert-type]')!;
    expect(alert.getAttribute('data-alert-type')).toBe('success');
    act(() => vi.advanceTimersByTime(4999));
    expect(screen.queryByText('Saved')).toBeTruthy();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Saved')).toBeNull();
    act(() => void showAlert('Oops', { type: 'error', autoCloseMs: 0 }));
    act(() => screen.getByRole('button', { name: 'Close notification' }).click());
    expect(screen.queryByText('Oops')).toBeNull();
  });
});
