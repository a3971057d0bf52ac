import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Chat } from '@reverie/shared';
import { initI18n } from '../../../lib/i18n';
import { clearSession } from '../../../lib/session';
import { setTokens } from '../../../lib/session';
import { chat, fakeApi, json, liveStream, message, renderChatView, type Call } from '../test-helpers';

/** The chat's ways to long-term memory: the memory page, "don't remember this chat", the summary's label. */

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => {
  cleanup();
  clearSession();
});

function renderChat(
  current: Chat,
  memoriesHref?: string,
  answer: (call: Call) => Response | undefined = () => undefined,
) {
  const calls = fakeApi((call) => {
    const answered = answer(call);
    if (answered) return answered;
    if (call.method === 'GET' && call.path.startsWith('/api/chat/history/'))
      return json({ results: [message('g1', { text: 'Hi! Coffee or tea?' })], next_param: null });
    if (call.method === 'GET' && call.path === '/api/chat/c1/memory')
      return json({ memory: 'We talked about coffee.', updated_at: null });
    return undefined;
  });
  const router = renderChatView(
    current,
    {
      memoriesHref,
      renderMessageExtras: (m) =>
        m.memories ? <span data-testid="extras-memories">{m.memories.in_prompt.join(',')}</span> : null,
    },
    { routes: [{ path: '/memories/aiko', element: <p data-testid="memory-page">memories</p> }] },
  );
  return { calls, router };
}

const openMenu = async () => fireEvent.click(await screen.findByTestId('chat-menu'));

describe('the chat menu and long-term memory', () => {
  it('"What Aiko remembers" opens the memory page; so does the link under the intro', async () => {
    const { router } = renderChat(chat(), '/memories/aiko');
    expect((await screen.findByTestId('intro-memories-link')).getAttribute('href')).toBe('/memories/aiko');
    await openMenu();
    const item = screen.getByTestId('chat-menu-remembers');
    expect(item.textContent).toContain('What Aiko remembers');
    fireEvent.click(item);
    await screen.findByTestId('memory-page');
    expect(router.state.location.pathname).toBe('/memories/aiko');
  });

  it("the summary is labelled as this chat's short-term summary and links to the memory page", async () => {
    renderChat(chat(), '/memories/aiko');
    await openMenu();
    const item = screen.getByTestId('chat-menu-memories');
    expect(item.textContent).toContain('Chat summary');
    fireEvent.click(item);
    expect(await screen.findByRole('dialog', { name: 'Summary of this chat' })).toBeTruthy();
    expect(screen.getByText(/keeps in mind here only/).textContent).toContain('across all your chats');
    expect(screen.getByTestId('summary-memories-link').textContent).toBe('See what Aiko remembers about you');
  });

  it('"Don\'t remember this chat" saves remember: false and says so', async () => {
    const { calls } = renderChat(chat(), '/memories/aiko', (call) =>
      call.method === 'PATCH' ? json(chat({ remember: false })) : undefined,
    );
    await openMenu();
    const item = screen.getByTestId('chat-menu-remember');
    expect(item.textContent).toContain("Don't remember this chat");
    fireEvent.click(item);
    expect(await screen.findByText("Aiko won't keep memories from this chat.")).toBeTruthy();
    const patch = calls.find((call) => call.method === 'PATCH');
    expect(patch?.path).toBe('/api/chat/c1');
    expect(patch?.body).toEqual({ remember: false });
  });

  it('a chat that is not remembered says so, and the menu turns it back on', async () => {
    const { calls } = renderChat(chat({ remember: false }), '/memories/aiko', (call) =>
      call.method === 'PATCH' ? json(chat({ remember: true })) : undefined,
    );
    expect((await screen.findByTestId('chat-not-remembered')).textContent).toBe(
      "Nothing from this chat becomes a memory of Aiko's.",
    );
    await openMenu();
    const item = screen.getByTestId('chat-menu-remember');
    expect(item.textContent).toContain('Remember this chat again');
    fireEvent.click(item);
    await waitFor(() => expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ remember: true }));
    expect(await screen.findByText('Aiko will remember this chat again.')).toBeTruthy();
  });

  it('without a memory page there is no entry for it', async () => {
    renderChat(chat());
    await openMenu();
    expect(screen.queryByTestId('chat-menu-remembers')).toBeNull();
    expect(screen.queryByTestId('chat-menu-remember')).toBeNull();
    expect(screen.queryByTestId('intro-memories-link')).toBeNull();
  });

  it('a reply that ends gets its memories a moment later (noted by the server as it ends)', async () => {
    setTokens('a.b.c', 'd.e.f');
    const stream = liveStream();
    let ended = false;
    const { calls } = renderChat(chat(), '/memories/aiko', (call) => {
      if (call.method === 'POST' && call.path === '/api/chat/c1/messages') return stream.response();
      if (ended && call.method === 'GET' && call.path === '/api/chat/history/c1')
        return json({
          results: [
            message('b1', {
              reply_to: 'u1',
              text: 'Green tea it is.',
              memories: { in_prompt: ['m1', 'm2'], drew_on: ['m1'] },
            }),
            message('u1', { role: 'user', text: 'Tea, please' }),
          ],
          next_param: null,
        });
      return undefined;
    });
    await screen.findByText('Hi! Coffee or tea?');
    const field = screen.getByTestId('composer').querySelector('textarea')!;
    fireEvent.change(field, { target: { value: 'Tea, please' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    await waitFor(() => expect(calls.some((c) => c.path === '/api/chat/c1/messages')).toBe(true));
    await act(async () => {
      stream.emit('user_message', message('u1', { role: 'user', text: 'Tea, please' }));
      stream.emit('bot_message', message('b1', { state: 'done', reply_to: 'u1', text: 'Green tea it is.' }));
      ended = true;
      stream.end();
    });
    expect(screen.queryByTestId('extras-memories')).toBeNull();
    expect((await screen.findByTestId('extras-memories', {}, { timeout: 3000 })).textContent).toBe('m1,m2');
    const read = calls.filter((c) => c.path === '/api/chat/history/c1').at(-1)!;
    expect(read.search).toContain('size=4');
  });
});
