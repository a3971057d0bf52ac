import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StreamEvent } from '@reverie/shared';
import { ApiRequestError, setUnauthorizedHandler } from '../../lib/api-client';
import { clearSession, setTokens } from '../../lib/session';
import { openEventStream, readEventStream } from './stream-client';

const encoder = new TextEncoder();

/** A body that hands out the given byte chunks one read at a time. */
function chunked(chunks: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i >= chunks.length) return controller.close();
      const chunk = chunks[i++]!;
      controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
    },
  });
}

const message = (id: string, state = 'done', text = '') => ({
  id,
  chat_id: 'c1',
  client_id: null,
  role: 'bot',
  kind: 1,
  text,
  img_url: null,
  has_audio: false,
  state,
  created_at: '2026-11-23T10:00:00.000Z',
  reply_to: 'u1',
  alt_index: 0,
  alt_count: 1,
  error_code: null,
  notice: null,
});

const wire = [
  `event: bot_message\ndata: ${JSON.stringify(message('b1', 'streaming'))}\n\n`,
  `event: delta\ndata: {"message_id":"b1","text":"Hel"}\n\n`,
  `event: delta\ndata: {"message_id":"b1","text":"lo — привет 你好"}\n\n`,
  `event: bot_message\ndata: ${JSON.stringify(message('b1', 'done', 'Hello — привет 你好'))}\n\n`,
].join('');

async function collect(body: ReadableStream<Uint8Array>) {
  const events: StreamEvent[] = [];
  await readEventStream(body, (event) => events.push(event));
  return events;
}

describe('readEventStream', () => {
  it('gives the same events however the bytes are cut', async () => {
    const whole = await collect(chunked([wire]));
    expect(whole.map((e) => e.event)).toEqual(['bot_message', 'delta', 'delta', 'bot_message']);
    expect(whole[2]).toEqual({ event: 'delta', data: { message_id: 'b1', text: 'lo — привет 你好' } });

    const bytes = encoder.encode(wire);
    for (const size of [1, 2, 3, 7, 16, 61]) {
      const pieces: Uint8Array[] = [];
      for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.slice(at, at + size));
      expect(await collect(chunked(pieces)), `chunks of ${size} bytes`).toEqual(whole);
    }
  });

  it('reads CRLF line ends, comments, multi-line data and a last event without its blank line', async () => {
    const events = await collect(
      chunked([
        ': keep-alive\r\n\r\n',
        'event: delta\r\ndata: {"message_id":"b1",\r\ndata: "text":"a"}\r\n\r',
        '\nevent: error\ndata: {"code":"timeout","detail":"Too slow","message_id":"b1"}',
      ]),
    );
    expect(events).toEqual([
      { event: 'delta', data: { message_id: 'b1', text: 'a' } },
      { event: 'error', data: { code: 'timeout', detail: 'Too slow', message_id: 'b1' } },
    ]);
  });

  it('skips unknown event names and data that is not JSON', async () => {
    const events = await collect(
      chunked(['event: ping\ndata: {}\n\n', 'event: delta\ndata: not json\n\n', 'data: {"x":1}\n\n']),
    );
    expect(events).toEqual([]);
  });
});

describe('openEventStream', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    setUnauthorizedHandler(null);
    clearSession();
  });

  it('sends JSON with the token and language, and reads the answer as a stream', async () => {
    setTokens('a.b.c', 'd.e.f');
    const requests: Request[] = [];
    vi.stubGlobal('fetch', async (input: string, init: RequestInit) => {
      requests.push(new Request(new URL(input, 'http://x'), init));
      return new Response(chunked([wire]), { headers: { 'content-type': 'text/event-stream' } });
    });
    const events: StreamEvent[] = [];
    await openEventStream('/api/chat/c1/messages', { body: { text: 'hi' } }, (e) => events.push(e));
    expect(events).toHaveLength(4);
    const sent = requests[0]!;
    expect(sent.method).toBe('POST');
    expect(sent.headers.get('Authorization')).toBe('Bearer a.b.c');
    expect(sent.headers.get('Accept')).toBe('text/event-stream');
    expect(sent.headers.get('Accept-Language')).toBeTruthy();
    expect(await sent.json()).toEqual({ text: 'hi' });
  });

  it('rejects a 429 with the API error and the Retry-After seconds', async () => {
    vi.stubGlobal(
      'fetch',
      async () =>
        new Response(JSON.stringify({ detail: 'Slow down', code: 'rate_limited' }), {
          status: 429,
          headers: { 'content-type': 'application/json', 'Retry-After': '12' },
        }),
    );
    const failure = await openEventStream('/api/chat/c1/messages', { body: {} }, () => {}).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiRequestError);
    expect(failure).toMatchObject({ status: 429, code: 'rate_limited', retryAfterSeconds: 12 });
  });

  it('refreshes the tokens once on 401 and repeats the request with the new token', async () => {
    setTokens('old.to.ken', 'd.e.f');
    setUnauthorizedHandler(async () => {
      setTokens('new.to.ken', 'g.h.i');
      return true;
    });
    const tokens: (string | null)[] = [];
    vi.stubGlobal('fetch', async (_input: string, init: RequestInit) => {
      tokens.push(new Headers(init.headers).get('Authorization'));
      return tokens.length === 1
        ? new Response(JSON.stringify({ detail: 'expired', code: 'unauthorized' }), { status: 401 })
        : new Response(chunked([wire]), { headers: { 'content-type': 'text/event-stream' } });
    });
    const events: StreamEvent[] = [];
    await openEventStream('/api/chat/c1/stream/b1', { method: 'GET' }, (e) => events.push(e));
    expect(tokens).toEqual(['Bearer old.to.ken', 'Bearer new.to.ken']);
    expect(events).toHaveLength(4);
  });

  it('rejects with status 0 when the network fails', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(openEventStream('/api/x', {}, () => {})).rejects.toMatchObject({ status: 0 });
  });
});
