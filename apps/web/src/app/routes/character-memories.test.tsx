import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { clearSession, setTokens } from '../../lib/session';
import { bot, fakeApi, json, renderRoutes } from '../../features/chat/test-helpers';
import { memory } from '../../features/memories/test-helpers';
import { seedProfile, testProfile } from '../../test/profile';
import { testBot } from '../../test/bot';
import { Component as CharacterMemories } from './character-memories';

/** `/memories/{slug}`: the character's memory page of the signed-in user. */

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => {
  cleanup();
  clearSession();
});

const routes = [{ path: '/memories/:slug', element: <CharacterMemories /> }];

describe('/memories/{slug}', () => {
  it('reads the character, then its memories by id, and names the page after it', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(testProfile());
    const calls = fakeApi((call) => {
      if (call.path === '/api/bot/aiko') return json(testBot(bot()));
      if (call.path === '/api/characters/bot1/memories')
        return json({ results: [memory('m1', { text: 'Your name is Ann' })], next_param: null });
      return undefined;
    });
    renderRoutes(routes, '/memories/aiko?memory=m1');
    expect((await screen.findByTestId('memories-title')).textContent).toBe('What Aiko remembers about you');
    await screen.findByText('Your name is Ann');
    expect(screen.getByTestId('memory').getAttribute('data-highlighted')).toBe('true');
    expect(calls.some((call) => call.path === '/api/characters/bot1/memories')).toBe(true);
    await waitFor(() => expect(document.title).toBe('What Aiko remembers about you — Reverie'));
  });

  it("is the site's 404 for a character the user cannot see", async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(testProfile());
    fakeApi(() => undefined);
    renderRoutes(routes, '/memories/nobody');
    await waitFor(() => expect(screen.queryByTestId('memories-page')).toBeNull());
    expect((await screen.findAllByText(/not found/i)).length).toBeGreaterThan(0);
  });
});
