import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Chat } from '@reverie/shared';
import { initI18n } from '../../../lib/i18n';
import { botKeys, chatKeys } from '../../../lib/query-keys';
import { clearSession } from '../../../lib/session';
import { bot, chat, fakeApi, json, message, renderChatView, renderRoutes, type Call } from '../test-helpers';
import { ChatList } from './chat-list';

/** The chat menu (history, new chat, rename, delete, persona) and the chats list's rows. */

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => clearSession());

const older = chat({
  id: 'c1',
  updated_at: '2026-11-20T10:00:00.000Z',
  last_message: message('m1', { chat_id: 'c1', text: 'See you tomorrow', created_at: '2026-11-20T10:00:00.000Z' }),
});
const newer = chat({
  id: 'c2',
  title: 'Rainy evening',
  updated_at: '2026-11-22T10:00:00.000Z',
  last_message: message('m2', {
    chat_id: 'c2',
    role: 'user',
    text: 'Good night!',
    created_at: '2026-11-22T10:00:00.000Z',
  }),
});

function renderChat(
  current: Chat,
  answer: (call: Call) => Response | undefined = () => undefined,
  onWriteFirst?: () => void,
) {
  const calls = fakeApi((call) => {
    if (call.method === 'GET' && call.path.startsWith('/api/chat/history/'))
      return json({ results: [message('g1', { text: 'Hi! Coffee or tea?' })], next_param: null });
    return answer(call);
  });
  const opened: Chat[] = [];
  const deleted: string[] = [];
  const created: string[] = [];
  let client!: QueryClient;
  function GrabClient() {
    client = useQueryClient();
    return null;
  }
  const router = renderChatView(
    current,
    {
      onCreatePersona: () => created.push('persona'),
      onOpenChat: (next) => opened.push(next),
      onDeleted: () => deleted.push(current.id),
      onWriteFirst,
    },
    { extra: <GrabClient /> },
  );
  return { calls, opened, deleted, created, router, client: () => client };
}

const openMenuItem = async (id: string) => {
  fireEvent.click(await screen.findByTestId('chat-menu'));
  fireEvent.click(screen.getByTestId(`chat-menu-${id}`));
};

describe('the chat menu', () => {
  it("opens the chat without the dialogs' queries; a dialog mounts when it first opens", async () => {
    const { client } = renderChat(chat(), (call) =>
      call.path === '/api/chat/c1/author-note' ? json({ text: '', depth: 4 }) : undefined,
    );
    await screen.findByTestId('chat-menu');
    const cached = () =>
      client()
        .getQueryCache()
        .find({ queryKey: chatKeys.authorNote('c1') });
    expect(cached()).toBeUndefined();
    await openMenuItem('author-note');
    expect(await screen.findByTestId('author-note-field')).toBeTruthy();
    expect(cached()).toBeDefined();
  });

  it('"She can write to me first" is in the menu when the page offers it, and opens its dialog', async () => {
    const opened: string[] = [];
    renderChat(chat(), undefined, () => opened.push('write-first'));
    fireEvent.click(await screen.findByTestId('chat-menu'));
    const item = screen.getByTestId('chat-menu-write-first');
    expect(item.textContent).toContain('She can write to me first');
    fireEvent.click(item);
    expect(opened).toEqual(['write-first']);
    cleanup();
    renderChat(chat());
    fireEvent.click(await screen.findByTestId('chat-menu'));
    expect(screen.queryByTestId('chat-menu-write-first')).toBeNull();
  });

  it('"New chat" asks first; confirming creates the chat and opens it, cancelling keeps this one', async () => {
    const fresh = chat({ id: 'c3' });
    const { calls, opened } = renderChat(older, (call) =>
      call.method === 'POST' && call.path === '/api/chat/create' ? json(fresh, 201) : undefined,
    );
    await openMenuItem('new');
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Start a new chat?');
    expect(dialog.textContent).toContain('This conversation is kept');
    fireEvent.click(within(dialog).getByText('Cancel'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((c) => c.path === '/api/chat/create')).toBe(false);

    await openMenuItem('new');
    fireEvent.click(await screen.findByTestId('new-chat-confirm'));
    await waitFor(() => expect(opened.map((c) => c.id)).toEqual(['c3']));
    expect(calls.find((c) => c.path === '/api/chat/create')?.body).toEqual({ botID: 'bot1' });
  });

  it("the history lists this character's chats with their last message, each linking to its own address", async () => {
    const { calls } = renderChat(older, (call) =>
      call.path === '/api/chats/available' ? json([older, newer]) : undefined,
    );
    await openMenuItem('history');
    const rows = await screen.findAllByTestId('chat-history-row');
    expect(new URLSearchParams(calls.find((c) => c.path === '/api/chats/available')!.search).get('bot_id')).toBe(
      'bot1',
    );
    expect(rows.map((row) => row.getAttribute('href'))).toEqual(['/aiko?chat=c2', '/aiko?chat=c1']);
    expect(rows[0]!.textContent).toContain('Rainy evening');
    expect(rows[0]!.textContent).toContain('You: Good night!');
    expect(rows[1]!.textContent).toContain('See you tomorrow');
    expect(rows[1]!.getAttribute('aria-current')).toBe('page');
    expect(rows[0]!.getAttribute('aria-current')).toBeNull();
  });

  it('renames the chat: the header shows the title above the name; a too long title says why', async () => {
    const { calls } = renderChat(older, (call) =>
      call.method === 'PATCH' && call.path === '/api/chat/c1'
        ? json({ ...older, title: (call.body as { title: string }).title })
        : undefined,
    );
    expect((await screen.findByTestId('chat-title')).textContent).toBe('Aiko');
    await openMenuItem('rename');
    const field = await screen.findByTestId('chat-title-field');
    fireEvent.change(field, { target: { value: 'x'.repeat(81) } });
    fireEvent.click(screen.getByTestId('chat-title-save'));
    expect((await screen.findByRole('alert')).textContent).toBe('A chat title can have at most 80 characters');
    fireEvent.change(field, { target: { value: '  Beach trip ' } });
    expect(screen.queryByText('A chat title can have at most 80 characters')).toBeNull();
    fireEvent.click(screen.getByTestId('chat-title-save'));
    await waitFor(() => expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ title: 'Beach trip' }));
  });

  it('shows a title in the header with the character name under it', async () => {
    renderChat(newer);
    expect((await screen.findByTestId('chat-title')).textContent).toBe('Rainy evening');
    expect(screen.getByTestId('chat-character-name').textContent).toBe('Aiko');
  });

  it('deletes the chat after asking, and its unsent draft with it', async () => {
    window.sessionStorage.setItem('chat-draft:c1', 'Half a thought');
    window.sessionStorage.setItem('chat-draft:c2', 'Another chat');
    const { calls, deleted } = renderChat(older, (call) =>
      call.method === 'DELETE' && call.path === '/api/chat/c1' ? json(null, 204) : undefined,
    );
    await openMenuItem('delete');
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Delete this chat?');
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(dialog).getByTestId('delete-chat-confirm'));
    await waitFor(() => expect(deleted).toEqual(['c1']));
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/chat/c1']);
    expect(window.sessionStorage.getItem('chat-draft:c1')).toBeNull();
    expect(window.sessionStorage.getItem('chat-draft:c2')).toBe('Another chat');
  });

  it('keeps one draft per chat: two chats with one character do not share what was typed', async () => {
    // A draft written before drafts were per chat (per character) moves to the first chat opened.
    window.sessionStorage.setItem('chat-draft:aiko', 'From before');
    const first = renderChat(older);
    const field = () => screen.getByPlaceholderText('Message Aiko…') as HTMLTextAreaElement;
    expect(field().value).toBe('From before');
    expect(window.sessionStorage.getItem('chat-draft:aiko')).toBeNull();
    fireEvent.change(field(), { target: { value: 'For the first chat' } });
    expect(window.sessionStorage.getItem('chat-draft:c1')).toBe('For the first chat');
    first.router.dispose();
    cleanup();

    renderChat(newer);
    expect(field().value).toBe('');
    fireEvent.change(field(), { target: { value: 'For the second chat' } });
    expect(window.sessionStorage.getItem('chat-draft:c2')).toBe('For the second chat');
    expect(window.sessionStorage.getItem('chat-draft:c1')).toBe('For the first chat');
    cleanup();

    renderChat(older);
    expect(field().value).toBe('For the first chat');
  });

  it('a persona created elsewhere appears in the persona dialog at once (one key factory)', async () => {
    let personas = [bot({ id: 'p1', kind: 'persona', name: 'Captain' })];
    const { client, calls } = renderChat(older, (call) =>
      call.path === '/api/bots/mine' ? json({ results: personas }) : undefined,
    );
    await openMenuItem('persona');
    await screen.findByText('Captain');
    // What the create form does after saving a persona (features/characters/api/create-bot.ts).
    personas = [...personas, bot({ id: 'p2', kind: 'persona', name: 'Navigator' })];
    await act(async () => {
      await client().invalidateQueries({ queryKey: botKeys.mine() });
    });
    await screen.findByText('Navigator');
    expect(calls.filter((c) => c.path === '/api/bots/mine')).toHaveLength(2);
  });
});

describe('the chats list', () => {
  function renderList(chats: Chat[], answer: (call: Call) => Response | undefined = () => undefined) {
    const calls = fakeApi(answer);
    renderRoutes([{ path: '/chat', element: <ChatList chats={chats} viewer="u1" /> }], '/chat');
    return calls;
  }

  it('two chats with one character: two rows, two addresses, the title and the character name', () => {
    renderList([newer, older]);
    const rows = screen.getAllByTestId('chat-row');
    expect(rows.map((row) => row.getAttribute('href'))).toEqual(['/aiko?chat=c2', '/aiko?chat=c1']);
    expect(screen.getAllByTestId('chat-row-name').map((n) => n.textContent)).toEqual(['Rainy evening', 'Aiko']);
    expect(screen.getByTestId('chat-row-character').textContent).toBe('Aiko');
  });

  it('previews never show a platform notice; a picture shows its caption', () => {
    const notice = chat({
      id: 'c4',
      last_message: message('n1', { role: 'system', notice: 'ai_disclosure', text: 'Aiko is an AI character' }),
    });
    const picture = chat({ id: 'c5', last_message: message('p1', { kind: 3, text: 'A selfie at the beach' }) });
    renderList([notice, picture]);
    const previews = screen.getAllByTestId('chat-row-preview').map((p) => p.textContent);
    expect(previews).toEqual(['No messages yet', 'A selfie at the beach']);
  });

  it("a row's menu deletes that chat after asking", async () => {
    const calls = renderList([newer, older], (call) => (call.method === 'DELETE' ? json(null, 204) : undefined));
    fireEvent.click(screen.getAllByTestId('chat-row-menu')[1]!);
    fireEvent.click(screen.getByTestId('chat-row-delete'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Aiko');
    fireEvent.click(within(dialog).getByTestId('delete-chat-confirm'));
    await waitFor(() => expect(calls.map((c) => `${c.method} ${c.path}`)).toContain('DELETE /api/chat/c1'));
  });

  it("a row's menu renames that chat", async () => {
    const calls = renderList([newer], (call) =>
      call.method === 'PATCH' ? json({ ...newer, title: 'Harbour' }) : undefined,
    );
    fireEvent.click(screen.getByTestId('chat-row-menu'));
    fireEvent.click(screen.getByTestId('chat-row-rename'));
    const field = (await screen.findByTestId('chat-title-field')) as HTMLInputElement;
    expect(field.value).toBe('Rainy evening');
    fireEvent.change(field, { target: { value: 'Harbour' } });
    fireEvent.click(screen.getByTestId('chat-title-save'));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({
        path: '/api/chat/c2',
        body: { title: 'Harbour' },
      }),
    );
  });
});
