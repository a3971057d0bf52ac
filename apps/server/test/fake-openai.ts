import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake OpenAI-compatible server for tests and the browser journeys' global setup: real
 * HTTP on a free port, real server-sent events. Plain node:http (no test-runner imports).
 *
 * - `POST /v1/chat/completions`: with `stream: true`, the reply as several `delta` events,
 *   a last event with `finish_reason`, then `data: [DONE]`; without it, one JSON completion.
 *   The reply is `text` when set, else `Echo: <the last user message>` (deterministic).
 * - `GET /v1/models`: the model ids seen in `options.models` (or `fake-model`).
 *
 * Behaviours: `ok`; `slow` (`delayMs` between pieces, 50 ms by default); `fail` (the status,
 * 500 by default, with an OpenAI-style error body); `hang` (answers the headers of a stream,
 * then nothing until the client gives up or the server closes).
 */
export interface FakeOpenAiBehaviour {
  mode: 'ok' | 'fail' | 'hang' | 'slow';
  text?: string;
  delayMs?: number;
  status?: number;
}

export interface FakeOpenAi {
  /** The API base, ending in `/v1`. */
  url: string;
  /** The JSON bodies of the chat completion requests received, oldest first. */
  requests: Record<string, unknown>[];
  /** The headers of those requests, in the same order. */
  headers: http.IncomingHttpHeaders[];
  setBehaviour(behaviour: FakeOpenAiBehaviour): void;
  close(): Promise<void>;
}

export interface FakeOpenAiOptions {
  behaviour?: FakeOpenAiBehaviour;
  models?: string[];
  port?: number;
}

/** Splits a reply into pieces of one word (with its following space) each. */
export function splitReply(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

function lastUserMessage(body: Record<string, unknown>): string {
  const messages = Array.isArray(body.messages) ? (body.messages as { role?: string; content?: unknown }[]) : [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role === 'user' && typeof message.content === 'string') return message.content;
  }
  return '';
}

export async function startFakeOpenAi(options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
  let behaviour: FakeOpenAiBehaviour = options.behaviour ?? { mode: 'ok' };
  const requests: Record<string, unknown>[] = [];
  const headers: http.IncomingHttpHeaders[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (req.method === 'GET' && url.pathname === '/v1/models') {
      const ids = options.models ?? ['fake-model'];
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: ids.map((id) => ({ id, object: 'model', owned_by: 'fake' })) }));
      return;
    }
    if (req.method !== 'POST' || url.pathname !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no route ${req.method} ${url.pathname}`, type: 'not_found' } }));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'the body is not JSON', type: 'invalid_request_error' } }));
        return;
      }
      requests.push(body);
      headers.push(req.headers);
      void answer(body, res, { ...behaviour });
    });
  });

  async function answer(body: Record<string, unknown>, res: http.ServerResponse, now: FakeOpenAiBehaviour) {
    if (now.mode === 'fail') {
      const status = now.status ?? 500;
      res.writeHead(status, { 'content-type': 'application/json', ...(status === 429 ? { 'retry-after': '7' } : {}) });
      res.end(JSON.stringify({ error: { message: now.text ?? `fake failure ${status}`, type: 'server_error' } }));
      return;
    }
    const model = typeof body.model === 'string' ? body.model : 'fake-model';
    const id = `chatcmpl-fake-${requests.length}`;
    const created = 1_700_000_000;
    if (body.stream !== true) {
      const text = now.text ?? `Echo: ${lastUserMessage(body)}`;
      if (now.mode === 'hang') return; // never answers; the client gives up
      if (now.mode === 'slow') await sleep(now.delayMs ?? 50);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.flushHeaders();
    if (now.mode === 'hang') return;
    const send = (choice: Record<string, unknown>) => {
      if (res.destroyed) return;
      const chunk = { id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, ...choice }] };
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    };
    send({ delta: { role: 'assistant', content: '' }, finish_reason: null });
    for (const piece of splitReply(now.text ?? `Echo: ${lastUserMessage(body)}`)) {
      if (now.mode === 'slow') await sleep(now.delayMs ?? 50);
      if (res.destroyed) return;
      send({ delta: { content: piece }, finish_reason: null });
    }
    send({ delta: {}, finish_reason: 'stop' });
    if (!res.destroyed) res.end('data: [DONE]\n\n');
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    headers,
    setBehaviour(next) {
      behaviour = next;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
