import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { clearSession, setTokens } from '../../../lib/session';
import { keepPendingMessage, peekPendingMessage } from '../pending-message';
import { bot, chat, fakeApi, json, liveStream, message, renderRoutes, renderChatView } from '../test-helpers';
import { GuestChatView } from './chat-view';

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => clearSession());

const field = () => screen.getByPlaceholderText('Message Aiko…') as HTMLTextAreaElement;

describe("the guest's first message survives sign-up", () => {
  it('a guest who sends is asked to sign up; the text stays in the field and is kept for this character', async () => {
    let asked = 0;
    renderRoutes(
      [
        {
          path: '/aiko',
          element: <GuestChatView bot={bot()} onBack={() => {}} onLoginRequired={() => (asked += 1)} />,
        },
      ],
      '/aiko',
    );
    await screen.findByText('Hi! Coffee or tea?');
    // A new device is told that sending creates an account, not to "log in".
    expect(screen.getByText("Type a message to Aiko — you'll create a free account when you send it.")).toBeTruthy();
    fireEvent.change(field(), { target: { value: 'Tea, please' } });
    fireEvent.keyDown(field(), { key: 'Enter' });
    expect(asked).toBe(1);
    expect(field().value).toBe('Tea, please');
    expect(peekPendingMessage('aiko')?.text).toBe('Tea, please');
    expect(peekPendingMessage('luna')).toBeNull();
  });

  it('the member chat sends the kept message once, with its client id, and empties the field', async () => {
    setTokens('a.b.c', 'd.e.f');
    window.sessionStorage.setItem('chat-draft:aiko', 'Tea, please');
    keepPendingMessage('aiko', 'Tea, please');
    const { clientId } = peekPendingMessage('aiko')!;
    const stream = liveStream();
    const calls = fakeApi((call) => {
      if (call.method === 'GET' && call.path === '/api/chat/history/c1')
        return json({ results: [message('g1', { text: 'Hi! Coffee or tea?' })], next_param: null });
      if (call.method === 'POST' && call.path === '/api/chat/c1/messages') return stream.response();
      return undefined;
    });
    renderChatView(chat());
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/chat/c1/messages')).toHaveLength(1));
    expect(calls.find((c) => c.path === '/api/chat/c1/messages')!.body).toEqual({
      client_id: clientId,
      text: 'Tea, please',
    });
    expect(peekPendingMessage('aiko')).toBeNull();
    expect(window.sessionStorage.getItem('chat-draft:aiko')).toBeNull();
    // The draft moved to the chat when it opened, and went with the sent message.
    expect(window.sessionStorage.getItem('chat-draft:c1')).toBeNull();
    await waitFor(() => expect(field().value).toBe(''));
    // The virtualised list puts its rows in a moment after the data.
    expect((await screen.findByTestId('message-user', {}, { timeout: 5000 })).textContent).toContain('Tea, please');

    await act(async () => {
      stream.emit('user_message', message('u1', { role: 'user', client_id: clientId, text: 'Tea, please' }));
      stream.emit('bot_message', message('b1', { reply_to: 'u1', text: 'Green tea it is.' }));
      stream.end();
    });
    expect(await screen.findByText('Green tea it is.')).toBeTruthy();
    // Never twice: the reply's end (busy → idle) does not send it again.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls.filter((c) => c.path === '/api/chat/c1/messages')).toHaveLength(1);
  });

  it("another character's kept message is not sent in this chat", async () => {
    setTokens('a.b.c', 'd.e.f');
    keepPendingMessage('luna', 'For Luna only');
    const calls = fakeApi((call) =>
      call.method === 'GET' && call.path === '/api/chat/history/c1'
        ? json({ results: [], next_param: null })
        : undefined,
    );
    renderChatView(chat());
    await waitFor(() => expect(calls.some((c) => c.path === '/api/chat/history/c1')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Reading the chat (POST …/read) is not sending.
    expect(calls.some((c) => c.method === 'POST' && !c.path.endsWith('/read'))).toBe(false);
    expect(peekPendingMessage('luna')?.text).toBe('For Luna only');
  });
});
