import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import german from '@reverie/shared/locales/de.json';
import { fakeApi, json } from '../features/chat/test-helpers';
import { changeLocale, initI18n } from '../lib/i18n';
import { clearSession, setTokens } from '../lib/session';
import { AppProviders } from '../lib/providers';
import { routes } from './router';
import { seedProfile, testQueryClient, testProfile } from '../test/profile';

const profile = testProfile();

function renderAt(path: string) {
  window.localStorage.setItem('age_confirmed', '1');
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <AppProviders client={testQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

function signIn() {
  setTokens('eyJ.eyJ.sig', 'eyJ.eyJ.sig');
  seedProfile(profile);
}

const field = (form: HTMLElement, name: string) =>
  form.querySelector<HTMLInputElement | HTMLTextAreaElement>(`[name="${name}"]`)!;
const errorOf = (form: HTMLElement, name: string) => form.querySelector(`[data-field-error="${name}"]`);

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => clearSession());

describe('forms clear an error as soon as the field is valid', () => {
  it('sign-up: each error goes with its own field, the others stay', async () => {
    renderAt('/?signup=1');
    const form = await screen.findByTestId('signup-form', {}, { timeout: 5000 });
    fireEvent.submit(form);
    expect(await screen.findByText('Please enter your username')).toBeTruthy();
    expect(screen.getByText('Please enter your email')).toBeTruthy();

    fireEvent.input(field(form, 'username'), { target: { value: 'ann' } });
    await waitFor(() => expect(screen.queryByText('Please enter your username')).toBeNull());
    expect(screen.getByText('Please enter your email')).toBeTruthy();

    fireEvent.input(field(form, 'email'), { target: { value: 'ann@' } });
    expect(await screen.findByText('Enter a valid email address')).toBeTruthy();
    fireEvent.input(field(form, 'email'), { target: { value: 'ann@example.test' } });
    await waitFor(() => expect(errorOf(form, 'email')).toBeNull());

    fireEvent.click(field(form, 'age_confirmed'));
    await waitFor(() => expect(errorOf(form, 'age_confirmed')).toBeNull());
  });

  it('log-in: the password error goes once the password is typed', async () => {
    renderAt('/?login=1');
    const form = await screen.findByTestId('login-form', {}, { timeout: 5000 });
    fireEvent.submit(form);
    expect(await screen.findByText('Please enter your password')).toBeTruthy();
    fireEvent.input(field(form, 'password'), { target: { value: 'secret-pass' } });
    await waitFor(() => expect(screen.queryByText('Please enter your password')).toBeNull());
  });

  it('Settings: the name error goes once a name is typed; an age under 18 says why', async () => {
    signIn();
    const calls = fakeApi((call) => (call.path === '/api/profile' ? json(profile) : undefined));
    renderAt('/settings');
    const form = await screen.findByTestId('profile-form', {}, { timeout: 5000 });
    fireEvent.input(field(form, 'name'), { target: { value: '' } });
    fireEvent.input(field(form, 'age'), { target: { value: '16' } });
    fireEvent.submit(form);
    expect(await screen.findByText('Please enter name')).toBeTruthy();
    expect(screen.getByText('You must be 18 or older to use this site')).toBeTruthy();
    expect(screen.queryByText('Invalid value')).toBeNull();

    fireEvent.input(field(form, 'name'), { target: { value: 'Ann' } });
    await waitFor(() => expect(screen.queryByText('Please enter name')).toBeNull());
    expect(screen.getByText('You must be 18 or older to use this site')).toBeTruthy();
    fireEvent.input(field(form, 'age'), { target: { value: '18' } });
    await waitFor(() => expect(screen.queryByText('You must be 18 or older to use this site')).toBeNull());
    expect(calls.some((c) => c.path === '/api/profile/update')).toBe(false);
  });

  it('Settings: the age message in another language', async () => {
    fakeApi((call) => {
      if (call.path === '/api/profile') return json(profile);
      if (call.path === '/locales/de.json') return json(german);
      return undefined;
    });
    await changeLocale('de');
    try {
      signIn();
      renderAt('/settings');
      const form = await screen.findByTestId('profile-form', {}, { timeout: 5000 });
      fireEvent.input(field(form, 'age'), { target: { value: '16' } });
      fireEvent.submit(form);
      expect(await screen.findByText('Du musst mindestens 18 Jahre alt sein, um diese Seite zu nutzen')).toBeTruthy();
    } finally {
      await changeLocale('en');
    }
  });

  it('create a character: the name error goes once a name is typed, nothing is sent meanwhile', async () => {
    signIn();
    const calls = fakeApi((call) => (call.path === '/api/profile' ? json(profile) : undefined));
    renderAt('/?create=1');
    const form = await screen.findByTestId('create-character-form', {}, { timeout: 5000 });
    fireEvent.submit(form);
    expect(await screen.findByText('Please enter name')).toBeTruthy();
    expect(screen.getByText('Fill in the field')).toBeTruthy();
    fireEvent.change(field(form, 'name'), { target: { value: 'Mira' } });
    await waitFor(() => expect(screen.queryByText('Please enter name')).toBeNull());
    expect(screen.getByText('Fill in the field')).toBeTruthy();
    fireEvent.change(field(form, 'description'), { target: { value: 'A lighthouse keeper.' } });
    await waitFor(() => expect(screen.queryByText('Fill in the field')).toBeNull());
    fireEvent.change(field(form, 'name'), { target: { value: '  ' } });
    expect(await screen.findByText('Please enter name')).toBeTruthy();
    // No character was sent (the app's own posts, such as its analytics, may go meanwhile).
    expect(calls.filter((c) => c.method === 'POST' && c.path.startsWith('/api/bot')).map((c) => c.path)).toEqual([]);
  });

  it('create a character as a guest offers sign-up and comes back to the form', async () => {
    const router = renderAt('/?create=1');
    fireEvent.click(await screen.findByTestId('create-character-auth', {}, { timeout: 5000 }));
    await screen.findByTestId('signup-form');
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get('next')).toBe('/?create=1');
  });
});
