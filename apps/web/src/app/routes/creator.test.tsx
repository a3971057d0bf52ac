import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { clearSession, setTokens } from '../../lib/session';
import { bot, fakeApi, json, renderRoutes } from '../../features/chat/test-helpers';
import { seedProfile, testProfile } from '../../test/profile';
import { Component as Creator } from './creator';
import { Component as Settings } from './settings';

const ID = '6f1c1f7e-2b1a-4d3e-9a77-0c0c0c0c0c0c';

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => clearSession());

describe("a creator's page", () => {
  it('lists their public characters under their name', async () => {
    fakeApi((call) =>
      call.path === `/api/creators/${ID}`
        ? json({
            id: ID,
            name: 'Mira',
            results: [bot({ slug: 'aiko', name: 'Aiko' }), bot({ id: 'b2', slug: 'rin', name: 'Rin' })],
          })
        : undefined,
    );
    renderRoutes([{ path: '/u/:id', element: <Creator /> }], `/u/${ID}`);
    expect((await screen.findByRole('heading', { level: 1, name: 'Characters by Mira' })).textContent).toBeTruthy();
    expect(screen.getByText('2 public characters')).toBeTruthy();
    expect(screen.getAllByTestId('character-card').map((card) => card.getAttribute('href'))).toEqual(['/aiko', '/rin']);
  });

  it('is the 404 page when the creator hid it', async () => {
    fakeApi(() => json({ detail: 'Not found', code: 'not_found' }, 404));
    renderRoutes([{ path: '/u/:id', element: <Creator /> }], `/u/${ID}`);
    expect((await screen.findByText('Page Not Found')).textContent).toBeTruthy();
    expect(screen.queryByTestId('creator-characters')).toBeNull();
  });

  it('is hidden from Settings with one switch', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(testProfile({ id: 'u1' }));
    let hidden = false;
    const calls = fakeApi((call) => {
      if (call.path !== '/api/profile/preferences') return undefined;
      if (call.method === 'PATCH') hidden = (call.body as { creator_page_hidden: boolean }).creator_page_hidden;
      return json({ locale: 'en', interests: [], marketing_emails: true, creator_page_hidden: hidden });
    });
    renderRoutes([{ path: '/settings', element: <Settings /> }], '/settings');
    const toggle = await screen.findByTestId('settings-creator-switch');
    await waitFor(() => expect((toggle as HTMLInputElement).checked).toBe(true));
    expect(screen.getByTestId('settings-creator-link').getAttribute('href')).toBe('/u/u1');
    fireEvent.click(toggle);
    await waitFor(() => expect((toggle as HTMLInputElement).checked).toBe(false));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ creator_page_hidden: true });
    expect(screen.queryByTestId('settings-creator-link')).toBeNull();
  });
});
