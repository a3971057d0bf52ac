import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bot, fakeApi, json } from '../features/chat/test-helpers';
import { initI18n } from '../lib/i18n';
import { clearSession, isAuthorized } from '../lib/session';
import { authModalName } from '../lib/modals';
import { AppProviders } from '../lib/providers';
import { routes } from './router';
import { testBot } from '../test/bot';

const detail = testBot(bot());
const TOKEN = 'eyJ.eyJ.sig';

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

const input = (form: HTMLElement, name: string) => form.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => clearSession());

describe('sign-up or log-in from where the visitor is', () => {
  it('offers sign-up on a device where nobody logged in, log-in where someone did', () => {
    expect(authModalName()).toBe('signup');
    window.localStorage.setItem('authorized_once', '1');
    expect(authModalName()).toBe('login');
  });

  it('a visitor who types to a character is offered sign-up, signs up and comes back to the chat', async () => {
    const calls = fakeApi((call) => {
      if (call.path === '/api/bot/aiko') return json(detail);
      if (call.path === '/api/register') return json({ id: 'u1', name: 'ann', email: 'ann@example.test' }, 201);
      if (call.path === '/api/token') return json({ access: TOKEN, refresh: TOKEN });
      return undefined;
    });
    const router = renderAt('/aiko');
    const field = (await screen.findByPlaceholderText('Message Aiko…', {}, { timeout: 5000 })) as HTMLTextAreaElement;
    fireEvent.change(field, { target: { value: 'Hello there' } });
    fireEvent.keyDown(field, { key: 'Enter' });

    const form = await screen.findByTestId('signup-form', {}, { timeout: 5000 });
    expect(screen.getByText('Create a free account and your message will be sent right away.')).toBeTruthy();
    // Log-in is one tap away and keeps where to return to.
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await screen.findByTestId('login-form');
    let params = new URLSearchParams(router.state.location.search);
    expect([params.get('login'), params.get('next'), params.get('from')]).toEqual(['1', '/aiko', 'chat']);
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await screen.findByTestId('signup-form');
    params = new URLSearchParams(router.state.location.search);
    expect(params.get('next')).toBe('/aiko');

    const signup = screen.getByTestId('signup-form');
    fireEvent.input(input(signup, 'username'), { target: { value: 'ann' } });
    fireEvent.input(input(signup, 'email'), { target: { value: 'ann@example.test' } });
    fireEvent.input(input(signup, 'password'), { target: { value: 'secret-pass' } });
    fireEvent.click(input(signup, 'age_confirmed'));
    fireEvent.submit(signup);

    await waitFor(() => expect(isAuthorized()).toBe(true));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe('/aiko'));
    expect(calls.some((c) => c.path === '/api/register')).toBe(true);
    expect(form.isConnected).toBe(false);
  });

  it('log-in goes to a safe next, never to another site', async () => {
    window.localStorage.setItem('authorized_once', '1');
    fakeApi((call) => (call.path === '/api/token' ? json({ access: TOKEN, refresh: TOKEN }) : undefined));
    const router = renderAt(`/blog?login=1&next=${encodeURIComponent('//evil.example')}`);
    const form = await screen.findByTestId('login-form', {}, { timeout: 5000 });
    fireEvent.input(input(form, 'email'), { target: { value: 'ann@example.test' } });
    fireEvent.input(input(form, 'password'), { target: { value: 'secret-pass' } });
    fireEvent.submit(form);
    await waitFor(() => expect(isAuthorized()).toBe(true));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(router.state.location.pathname).toBe('/blog');
  });

  it('log-in with a next path of this site lands there', async () => {
    window.localStorage.setItem('authorized_once', '1');
    fakeApi((call) => (call.path === '/api/token' ? json({ access: TOKEN, refresh: TOKEN }) : undefined));
    const router = renderAt(`/?login=1&next=${encodeURIComponent('/blog?x=1')}`);
    const form = await screen.findByTestId('login-form', {}, { timeout: 5000 });
    fireEvent.input(input(form, 'email'), { target: { value: 'ann@example.test' } });
    fireEvent.input(input(form, 'password'), { target: { value: 'secret-pass' } });
    fireEvent.submit(form);
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe('/blog?x=1'));
  });
});

describe('page not found', () => {
  it('/{slug} of no character is a 404 page with the site navigation and its title', async () => {
    renderAt('/no-such-character-xyz');
    const page = await screen.findByTestId('error-page', {}, { timeout: 5000 });
    expect(page.getAttribute('data-status')).toBe('404');
    expect(screen.getByRole('heading', { name: 'Page Not Found' })).toBeTruthy();
    // The navigation is there (not a bare page).
    expect(screen.getByTestId('tab-bar')).toBeTruthy();
    // `/{slug}` is the Chats tab's route, but a missing page is none of the tabs.
    expect(screen.getByTestId('tab-bar').querySelector('[data-active="true"]')).toBeNull();
    expect(screen.getByTestId('burger')).toBeTruthy();
    expect(document.title).toMatch(/^Page Not Found — /);
  });

  it('any unmatched path shows the same page with navigation', async () => {
    renderAt('/no/such/page');
    await screen.findByText('Page not found: /no/such/page', {}, { timeout: 5000 });
    expect(screen.getByTestId('tab-bar')).toBeTruthy();
  });
});
