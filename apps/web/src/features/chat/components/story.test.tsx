import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Chat, ChatBranch, Message } from '@reverie/shared';
import { initI18n } from '../../../lib/i18n';
import { clearSession, setTokens } from '../../../lib/session';
import { chat, fakeApi, json, liveStream, message, renderChatView, renderRoutes, type Call } from '../test-helpers';
import { ChatList, groupBranches } from './chat-list';
import { branchNumbers, treeOrder } from './story-dialogs';

/** Shaping the story in the chat (issue 29): edit, delete, branch, switch, search, Write my reply. */
const greeting = message('g1', { text: 'Hi! Coffee or tea?' });
const mine = message('u1', { role: 'user', text: 'Tea, please' });
const reply = message('b1', { text: 'Green or black?', reply_to: 'u1' });

function renderChat(
  history: Message[],
  answer: (call: Call) => Response | Promise<Response> | undefined,
  current: Chat = chat(),
) {
  const calls = fakeApi((call) => {
    if (call.method === 'GET' && call.path === `/api/chat/history/${current.id}`)
      return json({ results: [...history].reverse(), next_param: null });
    return answer(call);
  });
  const opened: Chat[] = [];
  /** How each was opened: in place of this chat in the history (a branch switch), or after it. */
  const replaced: boolean[] = [];
  renderChatView(current, {
    onOpenChat: (c, how) => {
      opened.push(c);
      replaced.push(how?.replace ?? false);
    },
  });
  return { calls, opened, replaced };
}

const field = () => screen.getByPlaceholderText('Message Aiko…') as HTMLTextAreaElement;

/** Opens the menu of the message whose bubble holds `text` and picks an item. */
async function messageMenu(text: string, item: string) {
  const row = (await screen.findByText(text)).closest('li')!;
  fireEvent.click(within(row).getByTestId('message-menu'));
  fireEvent.click(within(row).getByTestId(`message-menu-${item}`));
}

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => clearSession());

describe('story actions in a chat', () => {
  it('edits my message, marks it edited, and "Save and regenerate" regenerates the reply', async () => {
    setTokens('a.b.c', 'd.e.f');
    const stream = liveStream();
    const { calls } = renderChat([greeting, mine, reply], (call) => {
      if (call.method === 'PATCH' && call.path === '/api/chat/c1/messages/u1')
        return json({ ...mine, text: (call.body as { text: string }).text, edited_at: '2026-11-27T10:00:00Z' });
      if (call.method === 'POST' && call.path === '/api/chat/c1/messages/b1/regenerate') return stream.response();
      return undefined;
    });
    await messageMenu('Tea, please', 'edit');
    const edit = await screen.findByTestId('edit-message-field');
    fireEvent.change(edit, { target: { value: 'Coffee, actually' } });
    fireEvent.click(screen.getByTestId('edit-save-regenerate'));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/chat/c1/messages/b1/regenerate')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ text: 'Coffee, actually' });
    expect(await screen.findByText('Coffee, actually')).toBeTruthy();
    expect(screen.getByTestId('message-edited').textContent).toBe('edited');
    await act(async () => {
      stream.emit('bot_message', { ...reply, id: 'b2', alt_index: 1, alt_count: 2, text: 'Coffee it is.' });
      stream.end();
    });
  });

  it('copies my own message from its menu (its copy button shows only on hover, never on a phone)', async () => {
    setTokens('a.b.c', 'd.e.f');
    const copied: string[] = [];
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: async (text: string) => void copied.push(text) },
    });
    renderChat([greeting, mine, reply], () => undefined);
    await messageMenu('Tea, please', 'copy');
    await waitFor(() => expect(copied).toEqual(['Tea, please']));
  });

  it('"Delete from here" asks, then removes what the server removed', async () => {
    setTokens('a.b.c', 'd.e.f');
    const { calls } = renderChat([greeting, mine, reply], (call) =>
      call.method === 'DELETE' && call.path === '/api/chat/c1/messages/u1'
        ? json({ removed: ['u1', 'b1'] })
        : undefined,
    );
    await messageMenu('Tea, please', 'delete-from');
    expect(
      await screen.findByText('This message and everything after it (1 more) disappear from this chat.'),
    ).toBeTruthy();
    fireEvent.click(screen.getByTestId('delete-message-confirm'));
    await waitFor(() => expect(screen.queryByText('Tea, please')).toBeNull());
    expect(screen.queryByText('Green or black?')).toBeNull();
    expect(calls.find((c) => c.method === 'DELETE')!.search).toBe('?from=1');
    expect(screen.getByText('Hi! Coffee or tea?')).toBeTruthy();
  });

  it('"Delete from here" on the last message asks as for one message (nothing follows it)', async () => {
    setTokens('a.b.c', 'd.e.f');
    renderChat([greeting, mine, reply], () => undefined);
    await messageMenu('Green or black?', 'delete-from');
    expect(await screen.findByText('It disappears from this chat. A reply goes with its alternatives.')).toBeTruthy();
    expect(screen.queryByText(/0 more/)).toBeNull();
  });

  it('"Branch from here" opens the new branch; the switcher shows the tree and opens another branch', async () => {
    setTokens('a.b.c', 'd.e.f');
    const branch = chat({ id: 'c2', parent_chat_id: 'c1', root_chat_id: 'c1', fork_message_id: 'b1' });
    const { opened } = renderChat([greeting, mine, reply], (call) =>
      call.method === 'POST' && call.path === '/api/chat/c1/messages/b1/branch' ? json(branch, 201) : undefined,
    );
    await messageMenu('Green or black?', 'branch');
    await waitFor(() => expect(opened.map((c) => c.id)).toEqual(['c2']));
  });

  it('a branch has the switcher in its header: the tree with names, counts, the open one marked', async () => {
    setTokens('a.b.c', 'd.e.f');
    const tree: ChatBranch[] = [
      {
        id: 'c1',
        parent_chat_id: null,
        fork_message_id: null,
        title: null,
        created_at: '2026-11-20T10:00:00Z',
        updated_at: '2026-11-20T10:00:00Z',
        message_count: 40,
      },
      {
        id: 'c2',
        parent_chat_id: 'c1',
        fork_message_id: 'b1',
        title: 'The rainy path',
        created_at: '2026-11-21T10:00:00Z',
        updated_at: '2026-11-21T10:00:00Z',
        message_count: 1,
      },
    ];
    const current = chat({ id: 'c2', parent_chat_id: 'c1', root_chat_id: 'c1', title: 'The rainy path' });
    const { opened, replaced } = renderChat(
      [greeting],
      (call) => (call.path === '/api/chat/c2/branches' ? json({ root_id: 'c1', chats: tree }) : undefined),
      current,
    );
    fireEvent.click(await screen.findByTestId('chat-branches'));
    const rows = await screen.findAllByTestId('branch-row');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('Main story'),
      expect.stringContaining('The rainy path'),
    ]);
    expect(rows[1]!.getAttribute('aria-current')).toBe('true');
    // The count reads as a phrase, in the language's plural form; the open branch says so.
    expect(rows[0]!.textContent).toContain('40 messages');
    expect(rows[1]!.textContent).toMatch(/1 message(?!s)/);
    expect(rows[1]!.textContent).toContain("You're here");
    expect(rows[0]!.textContent).not.toContain("You're here");
    fireEvent.click(rows[0]!);
    expect(opened.map((c) => c.id)).toEqual(['c1']);
    // In place of the branch in the history: "back" leads to where the user came from (the
    // chats list), not through every branch they looked at.
    expect(replaced).toEqual([true]);
  });

  it('searches in the chat: hits with their words marked; a hit opens its neighbourhood', async () => {
    setTokens('a.b.c', 'd.e.f');
    const hit = message('h1', { text: 'Вчера я видел кошку', role: 'user' });
    renderChat([greeting], (call) => {
      if (call.path === '/api/chat/c1/search') return json({ results: [{ message: hit, highlights: [[14, 19]] }] });
      if (call.path === '/api/chat/c1/around/h1')
        return json({
          results: [message('h2', { text: 'Какую?' }), hit, message('h0', { text: 'Что нового?' })],
          next_param: null,
          has_newer: false,
        });
      return undefined;
    });
    fireEvent.click(await screen.findByTestId('chat-search'));
    fireEvent.change(await screen.findByTestId('chat-search-field'), { target: { value: 'кошка' } });
    const found = await screen.findByTestId('chat-search-hit', {}, { timeout: 2000 });
    expect(within(found).getByTestId('search-mark').textContent).toBe('кошку');
    fireEvent.click(found);
    const around = await screen.findByTestId('search-neighbourhood');
    expect(
      within(around)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      expect.stringContaining('Что нового?'),
      expect.stringContaining('Вчера я видел кошку'),
      expect.stringContaining('Какую?'),
    ]);
    expect(within(screen.getByTestId('around-hit')).getByTestId('search-mark').textContent).toBe('кошку');
  });

  it('a hit closes without a crash where scrollIntoView answers a Promise, and "Show in the chat" opens the chat at it', async () => {
    setTokens('a.b.c', 'd.e.f');
    // Chromium 156 answers scrollIntoView with a Promise: an effect must not hand it to React.
    const scrollIntoView = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = function () {
      return Promise.resolve() as unknown as void;
    };
    try {
      const hit = message('h1', { text: 'Вчера я видел кошку', role: 'user', created_at: '2026-10-02T08:30:00.000Z' });
      const { calls } = renderChat([greeting], (call) => {
        if (call.path === '/api/chat/c1/search') return json({ results: [{ message: hit, highlights: [[14, 19]] }] });
        if (call.path === '/api/chat/c1/around/h1')
          return json({ results: [message('h2', { text: 'Какую?' }), hit], next_param: null, has_newer: false });
        return undefined;
      });
      fireEvent.click(await screen.findByTestId('chat-search'));
      fireEvent.change(await screen.findByTestId('chat-search-field'), { target: { value: 'кошка' } });
      fireEvent.click(await screen.findByTestId('chat-search-hit', {}, { timeout: 2000 }));
      await screen.findByTestId('around-hit');
      fireEvent.click(screen.getByTestId('search-back'));
      expect(screen.queryByTestId('search-neighbourhood')).toBeNull();
      fireEvent.click(await screen.findByTestId('chat-search-hit'));
      await screen.findByTestId('around-hit');
      fireEvent.click(screen.getByTestId('search-show-in-chat'));
      await waitFor(() => expect(screen.queryByTestId('chat-search-field')).toBeNull());
      await waitFor(() =>
        expect(
          calls.some(
            (c) =>
              c.path === '/api/chat/history/c1' &&
              new URLSearchParams(c.search).get('at') === '2026-10-02T08:30:00.000Z',
          ),
        ).toBe(true),
      );
      expect(screen.getByTestId('chat-menu')).toBeTruthy();
    } finally {
      Element.prototype.scrollIntoView = scrollIntoView;
    }
  });

  it('"Write my reply" streams into the input box and never sends by itself', async () => {
    setTokens('a.b.c', 'd.e.f');
    const stream = liveStream();
    const { calls } = renderChat([greeting], (call) =>
      call.method === 'POST' && call.path === '/api/chat/c1/impersonate' ? stream.response() : undefined,
    );
    fireEvent.click(await screen.findByTestId('write-my-reply'));
    await act(async () => stream.emit('delta', { text: 'I take ' }));
    await waitFor(() => expect(field().value).toBe('I take '));
    await act(async () => {
      stream.emit('delta', { text: 'the tea.' });
      stream.emit('done', { text: 'I take the tea.' });
      stream.end();
    });
    await waitFor(() => expect(field().value).toBe('I take the tea.'));
    expect(field().readOnly).toBe(false);
    expect(calls.some((c) => c.path === '/api/chat/c1/messages')).toBe(false);
    expect(screen.queryByTestId('message-user')).toBeNull();
  });

  it('suggested replies are asked only when turned on; a chip fills the field', async () => {
    setTokens('a.b.c', 'd.e.f');
    localStorage.removeItem('chat-suggestions');
    const { calls } = renderChat([greeting, mine, reply], (call) =>
      call.path === '/api/chat/c1/suggestions' ? json({ suggestions: ['Green', 'Black', 'Surprise me'] }) : undefined,
    );
    await screen.findByText('Green or black?');
    expect(calls.some((c) => c.path === '/api/chat/c1/suggestions')).toBe(false);
    fireEvent.click(screen.getByTestId('chat-menu'));
    fireEvent.click(screen.getByTestId('chat-menu-suggestions'));
    const chips = await screen.findAllByTestId('suggestion-chip');
    expect(chips.map((c) => c.textContent)).toEqual(['Green', 'Black', 'Surprise me']);
    fireEvent.click(chips[2]!);
    expect(field().value).toBe('Surprise me');
    expect(calls.some((c) => c.path === '/api/chat/c1/messages')).toBe(false);
    localStorage.removeItem('chat-suggestions');
  });
});

describe('suggested replies turned off and on again', () => {
  it('are asked again when turned back on before the first answer came', async () => {
    setTokens('a.b.c', 'd.e.f');
    localStorage.removeItem('chat-suggestions');
    let asked = 0;
    renderChat([greeting, mine, reply], (call) => {
      if (call.path !== '/api/chat/c1/suggestions') return undefined;
      asked += 1;
      // The first answer never comes (the user turns them off meanwhile).
      return asked === 1 ? new Promise<Response>(() => {}) : json({ suggestions: ['Green', 'Black', 'Surprise me'] });
    });
    await screen.findByText('Green or black?');
    const toggle = () => {
      fireEvent.click(screen.getByTestId('chat-menu'));
      fireEvent.click(screen.getByTestId('chat-menu-suggestions'));
    };
    toggle();
    await waitFor(() => expect(asked).toBe(1));
    toggle();
    toggle();
    const chips = await screen.findAllByTestId('suggestion-chip');
    expect(chips.map((c) => c.textContent)).toEqual(['Green', 'Black', 'Surprise me']);
    expect(asked).toBe(2);
    localStorage.removeItem('chat-suggestions');
  });
});

describe('branches in the chats list', () => {
  const at = (id: string, when: string, changes: Partial<Chat> = {}) =>
    chat({ id, updated_at: when, last_message: null, ...changes });

  it('groups branches under their root, the tree placed by its newest chat', () => {
    const list = [
      at('a', '2026-11-20T10:00:00Z'),
      at('b', '2026-11-22T10:00:00Z'),
      at('a1', '2026-11-25T10:00:00Z', { root_chat_id: 'a', parent_chat_id: 'a' }),
      at('orphan', '2026-11-21T10:00:00Z', { root_chat_id: 'gone', parent_chat_id: 'gone' }),
    ];
    expect(groupBranches(list).map((r) => `${r.chat.id}${r.branch ? '*' : ''}`)).toEqual(['a', 'a1*', 'b', 'orphan']);
  });

  it('renders a branch row marked under its root', () => {
    fakeApi(() => undefined);
    renderRoutes(
      [
        {
          path: '/chat',
          element: (
            <ChatList
              viewer="u1"
              chats={[
                at('a', '2026-11-20T10:00:00Z'),
                at('a1', '2026-11-25T10:00:00Z', { root_chat_id: 'a', parent_chat_id: 'a', title: 'Other way' }),
              ]}
            />
          ),
        },
      ],
      '/chat',
    );
    const rows = screen.getAllByTestId('chat-row');
    expect(rows.map((r) => r.closest('li')!.getAttribute('data-branch'))).toEqual([null, 'true']);
    expect(rows[1]!.textContent).toContain('Other way');
  });

  it('numbers the branches of a tree in the order they were made (an untitled one is "Branch 2")', async () => {
    setTokens('a.b.c', 'd.e.f');
    const node = (id: string, parent: string | null, created: string): ChatBranch => ({
      id,
      parent_chat_id: parent,
      fork_message_id: null,
      title: null,
      created_at: created,
      updated_at: created,
      message_count: 3,
    });
    const tree = [
      node('c1', null, '2026-11-20T10:00:00Z'),
      node('c2', 'c1', '2026-11-21T10:00:00Z'),
      node('c3', 'c1', '2026-11-22T10:00:00Z'),
      node('c4', 'c2', '2026-11-23T10:00:00Z'),
    ];
    expect([...branchNumbers(tree)]).toEqual([
      ['c2', 1],
      ['c3', 2],
      ['c4', 3],
    ]);
    renderChat([greeting], (call) =>
      call.path === '/api/chat/c1/branches' ? json({ root_id: 'c1', chats: tree }) : undefined,
    );
    fireEvent.click(await screen.findByTestId('chat-menu'));
    fireEvent.click(screen.getByTestId('chat-menu-branches'));
    const rows = await screen.findAllByTestId('branch-row');
    expect(rows.map((r) => r.querySelector('.font-semibold')!.textContent)).toEqual([
      'Main story',
      'Branch 1',
      'Branch 3',
      'Branch 2',
    ]);
  });

  it('orders a tree parent first, then its branches, deeper ones indented', () => {
    const b = (id: string, parent: string | null): ChatBranch => ({
      id,
      parent_chat_id: parent,
      fork_message_id: null,
      title: null,
      created_at: '2026-11-20T10:00:00Z',
      updated_at: '2026-11-20T10:00:00Z',
      message_count: 1,
    });
    expect(
      treeOrder([b('r', null), b('x', 'r'), b('y', 'r'), b('x1', 'x')]).map((r) => `${r.branch.id}:${r.depth}`),
    ).toEqual(['r:0', 'x:1', 'x1:2', 'y:1']);
  });
});
