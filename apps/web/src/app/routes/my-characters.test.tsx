import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BotDetail, BotMine } from '@reverie/shared';
import { initI18n } from '../../lib/i18n';
import { clearSession, setTokens } from '../../lib/session';
import { fakeApi, json, renderRoutes, type Call } from '../../features/chat/test-helpers';
import { seedProfile, testProfile } from '../../test/profile';
import { testBot } from '../../test/bot';
import { Component as MyCharacters } from './my-characters';

const mine = (changes: Partial<BotMine> = {}): BotMine => {
  const {
    scenario: _s,
    gallery: _g,
    alternate_greetings: _a,
    creator_notes: _c,
    example_messages: _e,
    ...base
  } = testBot({ author_id: 'u1' });
  return { ...base, chats_count: 0, people_count: 0, ...changes };
};

const listed = mine({ id: 'b1', slug: 'mara-1', name: 'Mara', chats_count: 5, people_count: 3 });
const waiting = mine({ id: 'b2', slug: 'iris-2', name: 'Iris', review_state: 'pending' });
const rejected = mine({
  id: 'b3',
  slug: 'lena-3',
  name: 'Lena',
  review_state: 'rejected',
  review_reason: 'The photo is blurry',
});
const secret = mine({ id: 'b4', slug: 'nox-4', name: 'Nox', visibility: 'private', chats_count: 1 });
const persona = mine({ id: 'p1', slug: 'me-5', name: 'Captain Me', kind: 'persona', visibility: 'private' });

/** My characters of the member u1; `answer` takes the calls the list does not. */
function open(answer: (call: Call) => Response | undefined = () => undefined, path = '/settings/characters') {
  setTokens('a.b.c', 'd.e.f');
  seedProfile(testProfile({ id: 'u1' }));
  let list = [listed, waiting, rejected, secret, persona];
  const calls = fakeApi((call) => {
    if (call.method === 'GET' && call.path === '/api/bots/mine') return json({ results: list });
    if (call.method === 'DELETE') {
      list = list.filter((b) => `/api/bot/${b.slug}` !== call.path);
      return new Response(null, { status: 204 });
    }
    return answer(call);
  });
  renderRoutes([{ path: '/settings/characters', element: <MyCharacters /> }], path);
  return calls;
}

const row = async (name: string) =>
  (await screen.findAllByTestId('my-character')).find((item) => item.textContent?.includes(name))!;

const action = async (name: string, id: string) => {
  fireEvent.click(within(await row(name)).getByTestId('my-character-menu'));
  fireEvent.click(await screen.findByTestId(`my-character-menu-${id}`));
};

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => clearSession());

describe('My characters', () => {
  it('lists the characters with their state, chats and people; the reason of a rejection; personas apart', async () => {
    open();
    const mara = await row('Mara');
    expect(within(mara).getByTestId('my-character-state').textContent).toBe('Public');
    expect(within(mara).getByTestId('my-character-counts').textContent).toBe('5 chats · 3 people chatting');
    expect(within(mara).getByTestId('my-character-chat').getAttribute('href')).toBe('/mara-1');
    expect(within(await row('Iris')).getByTestId('my-character-state').textContent).toBe('Waiting for review');
    const lena = await row('Lena');
    expect(within(lena).getByTestId('my-character-state').textContent).toBe('Not approved');
    expect(within(lena).getByTestId('my-character-reason').textContent).toBe('Reason: The photo is blurry');
    const nox = await row('Nox');
    expect(within(nox).getByTestId('my-character-state').textContent).toBe('Private');
    // A private character's people are not counted: nobody else can chat with it.
    expect(within(nox).getByTestId('my-character-counts').textContent).toBe('1 chat');
    expect(screen.queryByText('Captain Me')).toBeNull();

    fireEvent.click(screen.getByRole('radio', { name: 'Personas' }));
    expect((await row('Captain Me')).textContent).toContain('Captain Me');
    expect(screen.queryByText('Mara')).toBeNull();
  });

  it('deletes a public character after saying that the people chatting keep their chats', async () => {
    const calls = open();
    await action('Mara', 'delete');
    const dialog = await screen.findByTestId('delete-character-dialog');
    expect(dialog.textContent).toContain(
      'The 3 people already chatting keep their chats and their whole history, and so do you.',
    );
    fireEvent.click(within(dialog).getByTestId('delete-character-confirm'));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/bot/mara-1')).toBe(true));
    expect((await screen.findByText('Mara was deleted.')).textContent).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Mara')).toBeNull());
    expect(screen.getByText('Iris')).toBeTruthy();
  });

  it('duplicates a character', async () => {
    const calls = open((call) =>
      call.method === 'POST' && call.path === '/api/bot/iris-2/duplicate'
        ? json(testBot({ slug: 'iris-9', name: 'Iris', visibility: 'private' }), 201)
        : undefined,
    );
    await action('Iris', 'duplicate');
    expect(
      (await screen.findByText('Copy of Iris created. It is private until you share it.')).textContent,
    ).toBeTruthy();
    // The list is read again.
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/bots/mine').length).toBeGreaterThan(1));
  });

  it('edits a character with a new photo: the photo goes first, then the fields', async () => {
    const detail: BotDetail = testBot({
      ...listed,
      scenario: '',
      gallery: [],
      alternate_greetings: [],
      creator_notes: '',
      example_messages: '',
      tags: ['anime'],
      voice: 'en-us+f3',
    });
    const calls = open((call) => {
      if (call.method === 'GET' && call.path === '/api/bot/mara-1') return json(detail);
      if (call.method === 'PUT' && call.path === '/api/bot/mara-1/photo') return json(detail);
      if (call.method === 'PATCH' && call.path === '/api/bot/mara-1') return json(detail);
      return undefined;
    });
    await action('Mara', 'edit');
    const form = await screen.findByTestId('edit-character-form');
    const file = new File([new Uint8Array([137, 80, 78, 71])], 'new.png', { type: 'image/png' });
    fireEvent.change(within(form).getByTestId('photo-input'), { target: { files: [file] } });
    fireEvent.click(within(form).getByRole('button', { name: 'Realistic' }));
    fireEvent.change(within(form).getByRole('combobox', { name: 'Voice' }), { target: { value: 'en-us+m3' } });
    fireEvent.submit(form);
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    const put = calls.findIndex((c) => c.method === 'PUT' && c.path === '/api/bot/mara-1/photo');
    const patch = calls.findIndex((c) => c.method === 'PATCH');
    expect(put).toBeGreaterThanOrEqual(0);
    expect(put).toBeLessThan(patch);
    expect(calls[patch]!.body).toMatchObject({ tags: ['realistic'], voice: 'en-us+m3', name: 'Mara' });
    expect((await screen.findByText('Saved.')).textContent).toBeTruthy();
  });

  it('says so when there is nothing yet, and offers to create', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(testProfile({ id: 'u1' }));
    fakeApi((call) => (call.path === '/api/bots/mine' ? json({ results: [] }) : undefined));
    renderRoutes([{ path: '/settings/characters', element: <MyCharacters /> }], '/settings/characters?kind=persona');
    expect((await screen.findByText(/You have no personas yet/)).textContent).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create a persona' })).toBeTruthy();
  });
});
