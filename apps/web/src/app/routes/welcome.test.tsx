import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { clearSession, setTokens } from '../../lib/session';
import { fakeApi, json, renderRoutes } from '../../features/chat/test-helpers';
import { Component as Welcome } from './welcome';

/** The onboarding after the first sign-up (`/welcome`): three steps, back, skip and finish. */
beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => {
  clearSession();
  localStorage.clear();
});

const routes = [
  { path: '/welcome', element: <Welcome /> },
  { path: '/', element: <p>home</p> },
  { path: '/:slug', element: <p>character page</p> },
];

const step = () => screen.getByTestId('welcome').getAttribute('data-step');
const button = (name: string) => screen.getByRole('button', { name });

describe('/welcome', () => {
  it('goes forward and back through its steps, saving the likes, and finishes where the user chose', async () => {
    setTokens('a.b.c', 'd.e.f');
    localStorage.setItem('onboarding_pending', '1');
    const saved: unknown[] = [];
    fakeApi((call) => {
      if (call.path === '/api/bots/available')
        return json({ results: [{ slug: 'aiko', name: 'Aiko' }], next_param: null });
      if (call.method !== 'GET') saved.push(call.body);
      return json({});
    });
    renderRoutes(routes, '/welcome');

    // Step 1: Skip and Next (no Back on the first step).
    expect(step()).toBe('1');
    expect(button('Skip')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Back' })).toBeNull();
    fireEvent.click(button('Next'));

    // Step 2: Back replaces Skip; the likes are saved on Next.
    expect(step()).toBe('2');
    expect(screen.queryByRole('button', { name: 'Skip' })).toBeNull();
    fireEvent.click(button('Back'));
    expect(step()).toBe('1');
    fireEvent.click(button('Next'));
    const tag = screen.getByRole('group').querySelector('button')!;
    fireEvent.click(tag);
    expect(tag.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(button('Next'));

    // Step 3: "Start exploring" instead of Next; a recommended character opens her page.
    expect(step()).toBe('3');
    expect(screen.queryByRole('button', { name: 'Next' })).toBeNull();
    expect(button('Start exploring')).toBeTruthy();
    await waitFor(() => expect(saved).toContainEqual({ interests: [expect.any(String)] }));
    fireEvent.click(await screen.findByRole('button', { name: /Aiko/ }));
    expect(await screen.findByText('character page')).toBeTruthy();
    expect(localStorage.getItem('onboarding_pending')).toBeNull();
  });

  it('Skip on the first step ends it at home', async () => {
    fakeApi(() => json({ results: [], next_param: null }));
    localStorage.setItem('onboarding_pending', '1');
    const first = renderRoutes(routes, '/welcome');
    fireEvent.click(button('Skip'));
    expect(await screen.findByText('home')).toBeTruthy();
    expect(first.state.location.pathname).toBe('/');
    expect(localStorage.getItem('onboarding_pending')).toBeNull();
  });

  it('"Start exploring" on the last step ends it at home', async () => {
    fakeApi(() => json({ results: [], next_param: null }));
    renderRoutes(routes, '/welcome');
    fireEvent.click(button('Next'));
    fireEvent.click(button('Next'));
    fireEvent.click(button('Start exploring'));
    expect(await screen.findByText('home')).toBeTruthy();
  });
});
