import { fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Bot } from '@reverie/shared';
import { AppProviders } from '../../../lib/providers';
import { initI18n } from '../../../lib/i18n';
import { isBlurredPicture } from '../../../lib/media';
import { clearSession, setTokens } from '../../../lib/session';
import { testQueryClient } from '../../../test/profile';
import { testBot } from '../../../test/bot';
import { CharacterCard } from './character-card';

const bot = (avatar_url: string | null): Bot =>
  testBot({ id: 'b1', slug: 'nova', name: 'Nova', age: 30, avatar_url, author_id: 'u1' });

const BLURRED = '/api/media/bots/b1/avatar.webp.blurred.webp';
const SHARP = '/api/media/bots/b1/avatar.webp?exp=1&sig=abc';

function renderCard(url: string | null) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <CharacterCard bot={bot(url)} priority /> },
      { path: '/nova', element: <p>character page</p> },
    ],
    { initialEntries: ['/?tags=custom'] },
  );
  render(
    <AppProviders client={testQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => clearSession());

describe('a blurred explicit picture (PRODUCT.md §6)', () => {
  it('is recognised by the blurred copy URL the server gives, signed or not', () => {
    expect(isBlurredPicture(BLURRED)).toBe(true);
    expect(isBlurredPicture(`${BLURRED}?exp=1&sig=a`)).toBe(true);
    expect(isBlurredPicture(SHARP)).toBe(false);
    expect(isBlurredPicture('/api/media/bots/b1/blurred.webp.png')).toBe(false);
    expect(isBlurredPicture(null)).toBe(false);
  });

  it('shows a guest "Log in to see", which opens the log-in dialog and comes back', () => {
    const router = renderCard(BLURRED);
    const hint = screen.getByTestId('blurred-picture-hint');
    expect(hint.textContent).toBe('Log in to see');
    // Not inside the card's own link (a link in a link is not valid HTML).
    expect(hint.closest('[data-testid="character-card"]')).toBeNull();
    fireEvent.click(hint);
    const params = router.state.location.search;
    expect(router.state.location.pathname).toBe('/');
    expect(new URLSearchParams(params).get('login')).toBe('1');
    expect(new URLSearchParams(params).get('next')).toBe('/?tags=custom');
    expect(new URLSearchParams(params).get('tags')).toBe('custom');
  });

  it('shows no hint to a signed-in viewer, nor on a sharp picture', () => {
    renderCard(SHARP);
    expect(screen.queryByTestId('blurred-picture-hint')).toBeNull();
    clearSession();
    setTokens('a.b.c', 'd.e.f');
    renderCard(BLURRED);
    expect(screen.queryByTestId('blurred-picture-hint')).toBeNull();
  });

  it('is shown as the server gave it: the card never swaps the URL or blurs with CSS', () => {
    renderCard(BLURRED);
    const img = screen.getByRole('img', { name: /Nova/ });
    expect(img.getAttribute('src')).toBe(BLURRED);
    expect(img.className).not.toMatch(/blur/);
  });
});

describe('style tags', () => {
  it('names a cartoon character’s style in the reader’s language, not as realistic', () => {
    const router = createMemoryRouter([
      { path: '/', element: <CharacterCard bot={testBot({ slug: 'olivia', name: 'Olivia', tags: ['cartoon'] })} /> },
    ]);
    render(
      <AppProviders client={testQueryClient()}>
        <RouterProvider router={router} />
      </AppProviders>,
    );
    const card = screen.getByTestId('character-card');
    expect(card.textContent).toContain('Cartoon');
    expect(card.textContent).not.toContain('Realistic');
    expect(card.textContent).not.toContain('cartoon');
  });
});
