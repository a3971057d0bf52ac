import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AdminCharacter } from '@reverie/shared';
import { AppProviders } from '../../../../lib/providers';
import { initI18n } from '../../../../lib/i18n';
import { CharacterGallery } from './character-editor';

const picture = (n: number, visibility: 'public' | 'private', isAvatar = false) => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  url: `/api/media/bots/b/${visibility}-${n}.png?exp=1&sig=s`,
  position: n,
  explicit: false,
  is_avatar: isAvatar,
  visibility,
});

const character = {
  id: '8d1c4f0e-0000-4000-8000-000000000009',
  slug: 'mika',
  name: 'Mika',
  pictures: [picture(1, 'public', true), picture(2, 'public'), picture(3, 'private')],
} as unknown as AdminCharacter;

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

beforeAll(async () => {
  await initI18n('en');
});

describe('the console gallery: public and private pictures', () => {
  it('marks the private pictures, never offers one as the avatar, and moves a picture between page and chat', async () => {
    const calls: { method: string; path: string; body: unknown }[] = [];
    globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://x'), init);
      const body = request.method === 'GET' ? null : await request.clone().text();
      calls.push({ method: request.method, path: new URL(request.url).pathname, body: body ? JSON.parse(body) : null });
      return json(character);
    };
    render(
      <AppProviders>
        <CharacterGallery character={character} />
      </AppProviders>,
    );
    const items = screen.getAllByRole('listitem');
    expect(items).toHaveLength(3);
    // The avatar: public, neither "Make avatar" nor a move to the chat.
    expect(within(items[0]!).queryByText('Send in chat only')).toBeNull();
    expect(within(items[0]!).getByText('Avatar')).toBeTruthy();
    // A page picture may become the avatar or a chat-only one.
    expect(within(items[1]!).getByText('Make avatar')).toBeTruthy();
    expect(within(items[1]!).queryByText('Chat only')).toBeNull();
    // A private picture says so and may only go back on the page.
    expect(within(items[2]!).getByText('Chat only')).toBeTruthy();
    expect(within(items[2]!).queryByText('Make avatar')).toBeNull();
    expect(screen.getByText(/Private pictures never appear on the character's page/)).toBeTruthy();

    fireEvent.click(within(items[1]!).getByText('Send in chat only'));
    fireEvent.click(within(items[2]!).getByText('Show on page'));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(2));
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([
      {
        method: 'PUT',
        path: `/api/admin/characters/${character.id}/pictures/${picture(2, 'public').id}/visibility`,
        body: { visibility: 'private' },
      },
      {
        method: 'PUT',
        path: `/api/admin/characters/${character.id}/pictures/${picture(3, 'private').id}/visibility`,
        body: { visibility: 'public' },
      },
    ]);
  });
});
