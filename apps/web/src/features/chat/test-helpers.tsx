import type { Bot, Chat, Message } from '@reverie/shared';
import type { ComponentProps, ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { fetchCall, type FetchCall, json, renderRoutes } from '../../test/render';
import { ChatView } from './components/chat-view';
export { json, renderRoutes } from '../../test/render';

const encoder = new TextEncoder();

export const bot = (changes: Partial<Bot> = {}): Bot => ({
  id: 'bot1',
  slug: 'aiko',
  name: 'Aiko',
  age: 24,
  kind: 'character',
  avatar_url: '/api/media/bots/aiko.webp',
  description: 'A barista who loves rainy days.',
  greeting: 'Hi! Coffee or tea?',
  occupation: [],
  personality: [],
  tags: [],
  is_official: true,
  visibility: 'public',
  author_id: null,
  voice: 'en-f1',
  created_at: '2026-11-01T10:00:00.000Z',
  ...changes,
});

export const message = (id: string, changes: Partial<Message> = {}): Message => ({
  id,
  chat_id: 'c1',
  client_id: null,
  role: 'bot',
  kind: 1,
  text: '',
  img_url: null,
  has_audio: false,
  state: 'done',
  created_at: '2026-11-23T10:00:00.000Z',
  reply_to: null,
  alt_index: 0,
  alt_count: 1,
  error_code: null,
  notice: null,
  spoken: false,
  edited_at: null,
  proactive: false,
  ...changes,
});

export const chat = (changes: Partial<Chat> = {}): Chat => ({
  id: 'c1',
  bot: bot(),
  last_message: null,
  updated_at: '2026-11-23T10:00:00.000Z',
  persona_id: null,
  model_id: null,
  unread: 0,
  title: null,
  remember: true,
  parent_chat_id: null,
  root_chat_id: null,
  fork_message_id: null,
  ...changes,
});

/** An event stream the test writes to, event by event. */
export function liveStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  return {
    response: () => new Response(body, { headers: { 'content-type': 'text/event-stream' } }),
    emit: (event: string, data: unknown) =>
      controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)),
    end: () => controller.close(),
  };
}

export type Call = FetchCall;

/** Answers fetches through `answer` (undefined → 404) and records every call. */
export function fakeApi(answer: (call: Call) => Response | Promise<Response> | undefined) {
  const calls: Call[] = [];
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const call = fetchCall(input, init);
    calls.push(call);
    return (await answer(call)) ?? json({ detail: 'Not found', code: 'not_found' }, 404);
  };
  return calls;
}

/**
 * The chat page of `current` for the signed-in user u1, at /aiko, with callbacks that do
 * nothing unless given; `routes` beside it, `extra` under the providers. Answers the router.
 */
export function renderChatView(
  current: Chat,
  props: Partial<ComponentProps<typeof ChatView>> = {},
  { routes = [], extra }: { routes?: RouteObject[]; extra?: ReactNode } = {},
) {
  return renderRoutes(
    [
      {
        path: '/aiko',
        element: (
          <ChatView
            chat={current}
            viewer="u1"
            onBack={() => {}}
            onRequirePremium={() => {}}
            onOpenChat={() => {}}
            onDeleted={() => {}}
            {...props}
          />
        ),
      },
      ...routes,
    ],
    '/aiko',
    extra,
  );
}
