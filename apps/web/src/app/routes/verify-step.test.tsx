import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '@reverie/shared';
import { AlertStack } from '../../components/ui/alerts';
import { AppProviders } from '../../lib/providers';
import { initI18n } from '../../lib/i18n';
import { clearSession, setTokens } from '../../lib/session';
import { seedProfile, testQueryClient } from '../../test/profile';
import { Component as VerifyStep } from './verify-step';

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => clearSession());

const profile = (confirmed: boolean): Profile => ({
  id: 'u1',
  name: 'Ann',
  age: null,
  email: 'ann@example.test',
  is_email_confirmed: confirmed,
  has_subscription: false,
  num_tokens: 0,
  locale: 'en',
  role: 'user',
  subscription: null,
  next_claim_at: null,
});

function renderAt(confirmed: boolean) {
  setTokens('a.b.c', 'd.e.f');
  seedProfile(profile(confirmed));
  globalThis.fetch = async () =>
    new Response(JSON.stringify(profile(confirmed)), { headers: { 'content-type': 'application/json' } });
  const router = createMemoryRouter([{ path: '/verify', element: <VerifyStep /> }], { initialEntries: ['/verify'] });
  render(
    <AppProviders client={testQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
}

describe('the verification window (issue 26)', () => {
  it('says it worked when the e-mail is confirmed', async () => {
    renderAt(true);
    expect(await screen.findByRole('heading', { name: 'E-mail confirmed' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Verify your e-mail' })).toBeNull();
  });

  it('a code that works: the window says it, and no toast says it a second time', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(profile(false));
    globalThis.fetch = async (input) => {
      const url = String(input instanceof Request ? input.url : input);
      const body =
        url.includes('/activate') || url.includes('/verify') ? { detail: 'Your e-mail is confirmed' } : profile(true);
      return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
    };
    const router = createMemoryRouter([{ path: '/verify', element: <VerifyStep /> }], {
      initialEntries: ['/verify?code=abc'],
    });
    render(
      <AppProviders client={testQueryClient()}>
        <RouterProvider router={router} />
        <AlertStack />
      </AppProviders>,
    );
    expect(await screen.findByRole('heading', { name: 'E-mail confirmed' })).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getAllByText('Your e-mail is confirmed')).toHaveLength(1);
  });

  it('asks to verify while it is not', async () => {
    renderAt(false);
    expect(await screen.findByRole('heading', { name: 'Verify your e-mail' })).toBeTruthy();
  });
});
