import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Bot } from '@reverie/shared';
import { AppProviders } from '../../../lib/providers';
import { initI18n } from '../../../lib/i18n';
import { resetInlineCatalogue } from '../api/inline-catalogue';
import { CharacterCard } from './character-card';
import { CharacterGrid, SEARCH_DELAY_MS } from './character-grid';

const bot = (overrides: Partial<Bot> = {}): Bot => ({
  id: 'b1',
  slug: 'luna',
  name: 'Luna',
  age: 24,
  kind: 'character',
  avatar_url: null,
  description: 'A painter.',
  greeting: 'Hi',
  occupation: [],
  personality: [],
  tags: ['anime'],
  is_official: true,
  visibility: 'public',
  author_id: null,
  voice: 'female',
  created_at: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

/** Answers the catalogue from a list, filtering on q as the server does (names and tags). */
function stubCatalogue(all: Bot[], requests: URL[]) {
  globalThis.fetch = async (input: RequestInfo | URL) => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://x');
    requests.push(url);
    const q = url.searchParams.get('q')?.toLowerCase() ?? '';
    const tags = url.searchParams.get('tags')?.split(',') ?? [];
    const results = all.filter(
      (b) =>
        (!q || b.name.toLowerCase().includes(q) || b.tags.some((tag) => tag.includes(q))) &&
        (!tags.includes('custom') || !b.is_official),
    );
    return json({ results, next_param: null });
  };
}

function renderGrid(path = '/', onCreate = vi.fn()) {
  const router = createMemoryRouter([{ path: '*', element: <CharacterGrid onCreate={onCreate} /> }], {
    initialEntries: [path],
  });
  render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router, onCreate };
}

beforeAll(async () => {
  await initI18n('en');
});

describe('the first page written into the page of /', () => {
  it("a guest's first list starts from it without asking the API; the page is taken once", async () => {
    const script = document.createElement('script');
    script.type = 'application/json';
    script.id = 'reverie-catalogue';
    script.textContent = JSON.stringify({
      results: [bot(), bot({ id: 'b2', slug: 'mira', name: 'Mira' })],
      next_param: null,
    });
    document.head.append(script);
    resetInlineCatalogue();
    const requests: URL[] = [];
    stubCatalogue([bot({ id: 'b3', slug: 'nova', name: 'Nova' })], requests);
    renderGrid();
    await waitFor(() => expect(screen.getAllByTestId('character-card')).toHaveLength(2));
    expect(screen.getAllByTestId('character-card')[1]!.textContent).toContain('Mira');
    expect(requests.filter((url) => url.pathname === '/api/bots/available')).toEqual([]);
    expect(document.getElementById('reverie-catalogue')).toBeNull();
  });

  it('without it (or once taken) the list asks the API', async () => {
    const requests: URL[] = [];
    stubCatalogue([bot({ id: 'b3', slug: 'nova', name: 'Nova' })], requests);
    renderGrid();
    await waitFor(() => expect(screen.getAllByTestId('character-card')).toHaveLength(1));
    expect(screen.getByTestId('character-card').textContent).toContain('Nova');
    expect(requests.map((url) => url.pathname)).toContain('/api/bots/available');
  });
});

describe('explore search', () => {
  it('searches by name and by tag on the server and keeps the search in the URL', async () => {
    const requests: URL[] = [];
    stubCatalogue([bot(), bot({ id: 'b2', slug: 'mira', name: 'Mira', tags: ['realistic', 'nurse'] })], requests);
    const { router } = renderGrid();
    await waitFor(() => expect(screen.getAllByTestId('character-card')).toHaveLength(2));

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search characters' }), { target: { value: ' Lu ' } });
    await waitFor(() => expect(router.state.location.search).toBe('?q=Lu'), { timeout: SEARCH_DELAY_MS + 1000 });
    await waitFor(() => expect(screen.getAllByTestId('character-card')).toHaveLength(1));
    expect(screen.getByTestId('character-card').textContent).toContain('Luna');
    expect(requests.at(-1)!.searchParams.get('q')).toBe('Lu');

    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'nurse' } });
    await waitFor(() => expect(router.state.location.search).toBe('?q=nurse'), { timeout: SEARCH_DELAY_MS + 1000 });
    await waitFor(() => expect(screen.getByTestId('character-card').textContent).toContain('Mira'));

    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'nobody' } });
    expect(await screen.findByText('No character matches “nobody”.', {}, { timeout: 2000 })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Clear the search' }));
    await waitFor(() => expect(router.state.location.search).toBe(''), { timeout: SEARCH_DELAY_MS + 1000 });
    await waitFor(() => expect(screen.getAllByTestId('character-card')).toHaveLength(2));
  });

  it('starts from ?q= in the URL and follows it when it changes without typing', async () => {
    const requests: URL[] = [];
    stubCatalogue([bot(), bot({ id: 'b2', slug: 'mira', name: 'Mira' })], requests);
    const { router } = renderGrid('/?q=mira');
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('mira');
    await waitFor(() => expect(screen.getByTestId('character-card').textContent).toContain('Mira'));
    expect(requests[0]!.searchParams.get('q')).toBe('mira');
    await act(() => router.navigate('/?q=luna'));
    await waitFor(() => expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('luna'));
    await waitFor(() => expect(screen.getByTestId('character-card').textContent).toContain('Luna'));
  });

  it('an empty Custom filter offers to create one', async () => {
    stubCatalogue([bot()], []);
    const { onCreate } = renderGrid();
    await screen.findByTestId('character-card');
    fireEvent.click(screen.getByRole('button', { name: 'Custom' }));
    expect(await screen.findByText('No custom characters here yet.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Create one' }));
    expect(onCreate).toHaveBeenCalledTimes(1);
  });
});

describe('character card', () => {
  it('shows a long name on up to two lines instead of cutting it to one', () => {
    const name = 'Seraphina Evangeline Montgomery-Castellanos';
    const router = createMemoryRouter([{ path: '*', element: <CharacterCard bot={bot({ name })} /> }]);
    render(
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>,
    );
    const heading = screen.getByRole('heading', { level: 3 });
    expect(heading.textContent).toContain(name);
    expect(heading.className).toContain('line-clamp-2');
    expect(heading.className).not.toContain('truncate');
  });

  it('asks for the picture at card size: a WebP srcset of our media, the full picture as fallback', () => {
    const avatar = '/api/media/bots/b1/avatar.png';
    const router = createMemoryRouter([
      { path: '*', element: <CharacterCard bot={bot({ avatar_url: avatar })} priority /> },
    ]);
    render(
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>,
    );
    const img = screen.getByRole('img', { name: /Luna/ });
    expect(img.getAttribute('src')).toBe(avatar);
    expect(img.getAttribute('srcset')).toBe(`${avatar}?w=256 256w, ${avatar}?w=512 512w`);
    expect(img.getAttribute('sizes')).toContain('50vw');
  });
});
