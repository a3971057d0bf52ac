import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '@reverie/shared';
import { initI18n } from '../../../lib/i18n';
import { clearSession, setTokens } from '../../../lib/session';
import { chat, fakeApi, json, liveStream, message, renderRoutes, type Call, renderChatView } from '../test-helpers';
import { ChatView } from './chat-view';

const greeting = message('g1', { text: 'Hi! Coffee or tea?' });

function renderChat(
  history: Message[],
  answer: (call: Call) => Response | Promise<Response> | undefined,
  next: string | null = null,
) {
  const calls = fakeApi((call) => {
    if (call.method === 'GET' && call.path === '/api/chat/history/c1')
      return json({ results: history, next_param: next });
    return answer(call);
  });
  const premium: string[] = [];
  const router = renderRoutes(
    [
      {
        path: '/aiko',
        element: (
          <ChatView
            chat={chat()}
            viewer="u1"
            onBack={() => {}}
            onRequirePremium={() => premium.push('model')}
            onOpenChat={() => {}}
            onDeleted={() => {}}
          />
        ),
      },
    ],
    '/aiko',
  );
  return { calls, router, premium };
}

const field = () => screen.getByPlaceholderText('Message Aiko…');

function typeAndSend(text: string) {
  fireEvent.change(field(), { target: { value: text } });
  fireEvent.keyDown(field(), { key: 'Enter' });
}

const botTexts = () => screen.getAllByTestId('message-bot').map((li) => li.textContent ?? '');

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => clearSession());

describe('ChatView', () => {
  it('sends with Enter: the message shows, the reply streams in and ends', async () => {
    setTokens('a.b.c', 'd.e.f');
    const stream = liveStream();
    const { calls } = renderChat([greeting], (call) =>
      call.method === 'POST' && call.path === '/api/chat/c1/messages' ? stream.response() : undefined,
    );
    await screen.findByText('Hi! Coffee or tea?');

    // Shift+Enter is a new line, not a send.
    fireEvent.change(field(), { target: { value: 'Tea, please' } });
    fireEvent.keyDown(field(), { key: 'Enter', shiftKey: true });
    // Reading the chat (POST …/read) is not sending.
    expect(calls.some((c) => c.method === 'POST' && !c.path.endsWith('/read'))).toBe(false);
    typeAndSend('Tea, please');

    await waitFor(() => expect(calls.some((c) => c.path === '/api/chat/c1/messages')).toBe(true));
    const sent = calls.find((c) => c.path === '/api/chat/c1/messages')!.body as { client_id: string; text: string };
    expect(sent.text).toBe('Tea, please');
    expect(sent.client_id).toMatch(/^[0-9a-f-]{36}$/);
    expect((field() as HTMLTextAreaElement).value).toBe('');
    expect(screen.getByTestId('message-user').textContent).toContain('Tea, please');
    expect(screen.getByTestId('stop-button')).toBeTruthy();

    await act(async () => {
      stream.emit('user_message', message('u1', { role: 'user', client_id: sent.client_id, text: 'Tea, please' }));
      stream.emit('bot_message', message('b1', { state: 'streaming', reply_to: 'u1' }));
    });
    expect(await screen.findByTestId('typing')).toBeTruthy();
    expect(screen.getAllByTestId('message-user')).toHaveLength(1);

    await act(async () => stream.emit('delta', { message_id: 'b1', text: 'Green ' }));
    await waitFor(() => expect(botTexts()[1]).toContain('Green'));
    expect(screen.queryByTestId('typing')).toBeNull();

    await act(async () => {
      stream.emit('delta', { message_id: 'b1', text: 'tea it is.' });
      stream.emit('bot_message', message('b1', { state: 'done', reply_to: 'u1', text: 'Green tea it is.' }));
      stream.end();
    });
    await waitFor(() => expect(screen.queryByTestId('stop-button')).toBeNull());
    expect(botTexts()[1]).toContain('Green tea it is.');
    expect(screen.getByTestId('send-button')).toBeTruthy();
    expect(screen.getByTestId('regenerate-button')).toBeTruthy();
    // Read when the chat showed, and again once the reply had ended (not while it streamed).
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/chat/c1/read')).toHaveLength(2));
  });

  it('stops a reply: the partial text stays, marked stopped', async () => {
    setTokens('a.b.c', 'd.e.f');
    const stream = liveStream();
    const { calls } = renderChat([greeting], (call) => {
      if (call.path === '/api/chat/c1/messages') return stream.response();
      if (call.path === '/api/chat/c1/stop') return json(null, 204);
      return undefined;
    });
    await screen.findByText('Hi! Coffee or tea?');
    typeAndSend('Tell me a story');
    await act(async () => {
      stream.emit('user_message', message('u1', { role: 'user', text: 'Tell me a story' }));
      stream.emit('bot_message', message('b1', { state: 'streaming', reply_to: 'u1' }));
      stream.emit('delta', { message_id: 'b1', text: 'Once upon a' });
    });
    fireEvent.click(await screen.findByTestId('stop-button'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/api/chat/c1/stop')).toBe(true));
    await act(async () => {
      stream.emit('bot_message', message('b1', { state: 'stopped', reply_to: 'u1', text: 'Once upon a' }));
      stream.end();
    });
    expect(await screen.findByText('Stopped')).toBeTruthy();
    expect(botTexts()[1]).toContain('Once upon a');
    await waitFor(() => expect(screen.queryByTestId('stop-button')).toBeNull());
  });

  it('shows a failed reply with its reason and retries it through regenerate', async () => {
    setTokens('a.b.c', 'd.e.f');
    const first = liveStream();
    const retry = liveStream();
    const { calls } = renderChat([greeting], (call) => {
      if (call.path === '/api/chat/c1/messages') return first.response();
      if (call.path === '/api/chat/c1/messages/b1/regenerate') return retry.response();
      return undefined;
    });
    await screen.findByText('Hi! Coffee or tea?');
    typeAndSend('Hello?');
    await act(async () => {
      first.emit('user_message', message('u1', { role: 'user', text: 'Hello?' }));
      first.emit('bot_message', message('b1', { state: 'streaming', reply_to: 'u1' }));
      first.emit('bot_message', message('b1', { state: 'failed', reply_to: 'u1', error_code: 'timeout' }));
      first.end();
    });
    const failed = await screen.findByTestId('message-failed');
    expect(failed.textContent).toContain('The reply took too long and was cut off.');
    expect(screen.queryByTestId('typing')).toBeNull();

    fireEvent.click(within(failed).getByTestId('retry-button'));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/chat/c1/messages/b1/regenerate')).toBe(true));
    await act(async () => {
      retry.emit('bot_message', message('b2', { state: 'streaming', reply_to: 'u1', alt_index: 1, alt_count: 2 }));
    });
    expect(await screen.findByTestId('typing')).toBeTruthy();
    expect(screen.queryByTestId('message-failed')).toBeNull();
    await act(async () => {
      retry.emit(
        'bot_message',
        message('b2', { reply_to: 'u1', text: 'Sorry, here now!', alt_index: 1, alt_count: 2 }),
      );
      retry.end();
    });
    await waitFor(() => expect(botTexts()).toHaveLength(2));
    expect(botTexts()[1]).toContain('Sorry, here now!');
    expect(screen.getByTestId('alt-position').textContent).toBe('2/2');
  });

  it('ends a reply whose stream keeps failing as failed with a retry, never an endless typing indicator', async () => {
    setTokens('a.b.c', 'd.e.f');
    const first = liveStream();
    renderChat([greeting], (call) => {
      if (call.path === '/api/chat/c1/messages') return first.response();
      if (call.path === '/api/chat/c1/stream/b1') throw new TypeError('Failed to fetch');
      return undefined;
    });
    await screen.findByText('Hi! Coffee or tea?');
    typeAndSend('Are you there?');
    await act(async () => {
      first.emit('user_message', message('u1', { role: 'user', text: 'Are you there?' }));
      first.emit('bot_message', message('b1', { state: 'streaming', reply_to: 'u1' }));
      first.end();
    });
    const failed = await screen.findByTestId('message-failed', {}, { timeout: 8000 });
    expect(failed.textContent).toContain('The connection dropped');
    expect(screen.queryByTestId('typing')).toBeNull();
    expect(screen.getByTestId('retry-button')).toBeTruthy();
  }, 10_000);

  it('re-attaches to a reply still being written when the page opens', async () => {
    setTokens('a.b.c', 'd.e.f');
    const attached = liveStream();
    const history = [
      message('b1', { state: 'streaming', reply_to: 'u1', text: 'Half a sen' }),
      message('u1', { role: 'user', text: 'Talk to me' }),
      greeting,
    ];
    const { calls } = renderChat(history, (call) =>
      call.path === '/api/chat/c1/stream/b1' ? attached.response() : undefined,
    );
    await waitFor(() => expect(calls.some((c) => c.path === '/api/chat/c1/stream/b1')).toBe(true));
    await act(async () => {
      attached.emit('bot_message', message('b1', { state: 'streaming', reply_to: 'u1', text: 'Half a sentence' }));
      attached.emit('delta', { message_id: 'b1', text: ' and more.' });
      attached.emit('bot_message', message('b1', { reply_to: 'u1', text: 'Half a sentence and more.' }));
      attached.end();
    });
    await waitFor(() => expect(botTexts()[1]).toContain('Half a sentence and more.'));
    expect(botTexts()[1]).not.toContain('Half a senHalf');
  });

  it('swipes between alternatives of a reply ("1/3" → "2/3")', async () => {
    setTokens('a.b.c', 'd.e.f');
    const history = [
      message('b1', { reply_to: 'u1', text: 'First take', alt_index: 0, alt_count: 3 }),
      message('u1', { role: 'user', text: 'Say something' }),
      greeting,
    ];
    const { calls } = renderChat(history, (call) =>
      call.path === '/api/chat/c1/messages/b1/select'
        ? json(message('b1-2', { reply_to: 'u1', text: 'Second take', alt_index: 1, alt_count: 3 }))
        : undefined,
    );
    expect((await screen.findByTestId('alt-position')).textContent).toBe('1/3');
    expect((screen.getByTestId('alt-previous') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId('alt-next'));
    await waitFor(() => expect(screen.getByTestId('alt-position').textContent).toBe('2/3'));
    expect(calls.find((c) => c.path.endsWith('/select'))?.body).toEqual({ index: 1 });
    expect(botTexts()).toHaveLength(2);
    expect(botTexts()[1]).toContain('Second take');
    expect(screen.queryByText('First take')).toBeNull();

    // A swipe to the right on the reply goes back to the first one.
    const bubble = screen.getByText('Second take').closest('[aria-busy], div')!;
    fireEvent.touchStart(bubble, { touches: [{ clientX: 100, clientY: 300 }] });
    fireEvent.touchEnd(bubble, { changedTouches: [{ clientX: 220, clientY: 310 }] });
    await waitFor(() =>
      expect(calls.filter((c) => c.path.endsWith('/select')).map((c) => c.body)).toEqual([{ index: 1 }, { index: 0 }]),
    );
  });

  it('says clearly when sending is refused: too fast (429) or a reply still running (409)', async () => {
    setTokens('a.b.c', 'd.e.f');
    let status = 429;
    const { calls } = renderChat([greeting], (call) =>
      call.path === '/api/chat/c1/stop'
        ? new Response(null, { status: 204 })
        : call.path === '/api/chat/c1/messages'
          ? status === 429
            ? json({ detail: 'Too many requests', code: 'rate_limited' }, 429, { 'Retry-After': '7' })
            : json({ detail: 'Busy', code: 'generation_in_progress' }, 409)
          : undefined,
    );
    await screen.findByText('Hi! Coffee or tea?');
    typeAndSend('One');
    expect((await screen.findByTestId('chat-error')).textContent).toContain(
      "You're sending messages too fast. Try again in 7 s.",
    );
    expect(screen.getByText('Not sent')).toBeTruthy();

    status = 409;
    fireEvent.click(screen.getByText('Send again'));
    await waitFor(() =>
      expect(screen.getByTestId('chat-error').textContent).toContain('A reply is still being written.'),
    );
    expect(screen.getAllByTestId('message-user')).toHaveLength(1);
    // That reply is not on this page (regenerated far up before a reload, or in another tab): the
    // banner stops it, as its text offers; then the message can go.
    fireEvent.click(screen.getByTestId('chat-error-stop'));
    await waitFor(() => expect(screen.queryByTestId('chat-error')).toBeNull());
    expect(calls.filter((c) => c.path === '/api/chat/c1/stop')).toHaveLength(1);
  });

  it('offers no stop in the banner for a refusal that is not a running reply', async () => {
    setTokens('a.b.c', 'd.e.f');
    renderChat([greeting], (call) =>
      call.path === '/api/chat/c1/messages'
        ? json({ detail: 'Too many requests', code: 'rate_limited' }, 429)
        : undefined,
    );
    await screen.findByText('Hi! Coffee or tea?');
    typeAndSend('One');
    await screen.findByTestId('chat-error');
    expect(screen.queryByTestId('chat-error-stop')).toBeNull();
  });

  it('loads older pages above the newest without duplicates', async () => {
    setTokens('a.b.c', 'd.e.f');
    const pages: Record<string, { results: Message[]; next_param: string | null }> = {
      first: {
        results: [
          message('b2', { reply_to: 'u2', text: 'newest' }),
          message('u2', { role: 'user', text: 'second question' }),
        ],
        next_param: 'p2',
      },
      p2: {
        results: [
          message('u2', { role: 'user', text: 'second question' }),
          message('b1', { reply_to: 'u1', text: 'older' }),
          message('u1', { role: 'user', text: 'first question' }),
          greeting,
        ],
        next_param: null,
      },
    };
    const calls = fakeApi((call) => {
      if (call.path !== '/api/chat/history/c1') return undefined;
      const cursor = new URLSearchParams(call.search).get('c');
      return json(pages[cursor ?? 'first']);
    });
    renderChatView(chat());
    await screen.findByText('first question');
    // The list settles (its rows are measured and placed) a moment after the text first shows.
    await waitFor(() => {
      const texts = screen.getAllByRole('listitem').map((li) => li.textContent ?? '');
      expect(texts.filter((t) => t.includes('second question'))).toHaveLength(1);
      expect(texts.findIndex((t) => t.includes('Hi! Coffee'))).toBeLessThan(
        texts.findIndex((t) => t.includes('first question')),
      );
      expect(texts.findIndex((t) => t.includes('older'))).toBeLessThan(texts.findIndex((t) => t.includes('newest')));
    });
    expect(screen.getByTestId('character-intro')).toBeTruthy();
    // Read once the newest messages showed, not while they loaded; the older page asked no other read.
    await act(async () => {});
    const reads = calls.flatMap((c, i) => (c.path === '/api/chat/c1/read' ? [i] : []));
    expect(reads).toHaveLength(1);
    expect(calls.findIndex((c) => c.path === '/api/chat/history/c1')).toBeLessThan(reads[0]!);
  });

  it('reports a message with a reason', async () => {
    setTokens('a.b.c', 'd.e.f');
    const { calls } = renderChat([greeting], (call) =>
      call.path === '/api/chat/c1/messages/g1/report' ? json({}, 201) : undefined,
    );
    await screen.findByText('Hi! Coffee or tea?');
    fireEvent.click(screen.getByTestId('report-button'));
    const dialog = await screen.findByTestId('report-dialog');
    fireEvent.click(within(dialog).getByLabelText('Harassment or hate'));
    fireEvent.click(within(dialog).getByText('Send report'));
    await screen.findByText("Thank you. We'll review this message.");
    expect(calls.find((c) => c.path.endsWith('/report'))?.body).toEqual({ reason: 'harassment' });
  });

  it('opens the premium offer for a premium model a free user may not pick', async () => {
    setTokens('a.b.c', 'd.e.f');
    const { premium, calls } = renderChat([greeting], (call) =>
      call.path === '/api/models'
        ? json({
            default_id: 'local',
            results: [
              { id: 'local', label: 'Local', provider: 'local', context_size: 4096, premium: false, available: true },
              { id: 'big', label: 'Big', provider: 'openai', context_size: 32768, premium: true, available: false },
            ],
          })
        : undefined,
    );
    await screen.findByText('Hi! Coffee or tea?');
    fireEvent.click(screen.getByTestId('chat-menu'));
    fireEvent.click(screen.getByTestId('chat-menu-model'));
    fireEvent.click(await screen.findByText('Big'));
    await waitFor(() => expect(premium).toEqual(['model']));
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it("downloads the character's card with the user's token from the menu", async () => {
    setTokens('a.b.c', 'd.e.f');
    const created: string[] = [];
    const original = URL.createObjectURL;
    URL.createObjectURL = () => {
      created.push('blob');
      return 'blob:card';
    };
    try {
      const { calls } = renderChat([greeting], (call) =>
        call.method === 'GET' && call.path === '/api/bot/aiko/card.png'
          ? new Response(new Uint8Array([137, 80, 78, 71]), { headers: { 'content-type': 'image/png' } })
          : undefined,
      );
      await screen.findByText('Hi! Coffee or tea?');
      fireEvent.click(screen.getByTestId('chat-menu'));
      fireEvent.click(screen.getByTestId('chat-menu-card'));
      await waitFor(() => expect(created).toEqual(['blob']));
      expect(calls.some((c) => c.path === '/api/bot/aiko/card.png')).toBe(true);
    } finally {
      URL.createObjectURL = original;
    }
  });

  it('ends a send answered by the platform (crisis reply, refusal) without retrying or a typing indicator', async () => {
    setTokens('a.b.c', 'd.e.f');
    let sends = 0;
    let refuse = false;
    renderChat([greeting], (call) => {
      if (call.path !== '/api/chat/c1/messages') return undefined;
      sends += 1;
      const stream = liveStream();
      const body = call.body as { client_id: string };
      if (refuse) {
        stream.emit(
          'user_message',
          message('u2', { role: 'user', client_id: body.client_id, state: 'failed', error_code: 'refused' }),
        );
        stream.emit(
          'system_message',
          message('s2', { role: 'system', notice: 'refusal', text: 'This content cannot be shown.' }),
        );
      } else {
        stream.emit(
          'user_message',
          message('u1', { role: 'user', client_id: body.client_id, text: 'I feel hopeless' }),
        );
        stream.emit(
          'system_message',
          message('s1', { role: 'system', notice: 'crisis', text: 'You matter. Call 988.' }),
        );
      }
      stream.end();
      return stream.response();
    });
    await screen.findByText('Hi! Coffee or tea?');
    typeAndSend('I feel hopeless');
    // The notice is written from its kind in the interface language, not from the saved text.
    const crisis = await screen.findByText(/findahelpline\.com/);
    expect(crisis.closest('[data-notice]')?.getAttribute('data-notice')).toBe('crisis');
    await waitFor(() => expect(screen.getByTestId('send-button')).toBeTruthy());
    expect(screen.queryByTestId('typing')).toBeNull();
    expect(screen.queryByTestId('chat-error')).toBeNull();

    refuse = true;
    typeAndSend('something not allowed');
    expect((await screen.findByTestId('message-refused')).textContent).toContain('breaks the content rules');
    expect(screen.queryByText('Send again')).toBeNull();
    expect(screen.queryByText('something not allowed')).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(sends).toBe(2);
  });

  it('shows a picture answer through renderPicture', async () => {
    setTokens('a.b.c', 'd.e.f');
    fakeApi((call) => {
      if (call.path === '/api/chat/history/c1') return json({ results: [greeting], next_param: null });
      if (call.path !== '/api/chat/c1/messages') return undefined;
      const stream = liveStream();
      stream.emit('user_message', message('u1', { role: 'user', text: 'Send me a picture' }));
      stream.emit('image', message('p1', { kind: 3, reply_to: 'u1', img_url: '/api/media/chats/u1/p.webp' }));
      stream.end();
      return stream.response();
    });
    renderRoutes(
      [
        {
          path: '/aiko',
          element: (
            <ChatView
              chat={chat()}
              viewer="u1"
              onBack={() => {}}
              onRequirePremium={() => {}}
              onOpenChat={() => {}}
              onDeleted={() => {}}
              renderPicture={(m) => <img data-testid="picture" alt="" src={m.img_url ?? ''} data-kind={m.kind} />}
              renderMessageExtras={(m) => <span data-testid="extras">{m.id}</span>}
            />
          ),
        },
      ],
      '/aiko',
    );
    await screen.findByText('Hi! Coffee or tea?');
    typeAndSend('Send me a picture');
    const picture = await screen.findByTestId('picture');
    expect(picture.getAttribute('data-kind')).toBe('3');
    await waitFor(() => expect(screen.getByTestId('send-button')).toBeTruthy());
    expect(screen.getAllByTestId('extras').map((e) => e.textContent)).toEqual(['g1', 'p1']);
  });
});
