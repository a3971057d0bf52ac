import type http from 'node:http';
import { wavFile } from '../src/lib/pcm.js';
import { encodeMp3 } from '../src/providers/tts/mp3.js';
import { listenOnLoopback, readBody, sendJson } from './fake-http.js';
import { fakeEmbedding } from './fake-embedder.js';

/**
 * A fake OpenAI-compatible server for tests and the browser journeys' global setup: real
 * HTTP on a free port, real server-sent events. Plain node:http (no test-runner imports).
 *
 * - `POST /v1/chat/completions`: with `stream: true`, the reply as several `delta` events,
 *   a last event with `finish_reason`, then `data: [DONE]`; without it, one JSON completion.
 *   The reply is `text` when set, else `Echo: <the last user message>` (deterministic).
 * - `GET /v1/models`: the model ids seen in `options.models` (or `fake-model`).
 * - `POST /v1/audio/transcriptions` (multipart: `file`, `model`, `language`,
 *   `response_format`): answers `{ text }` with the configured transcript (`setStt`); each
 *   request is recorded in `transcriptions` with the WAV's samples.
 * - `POST /v1/audio/speech` (JSON: `input`, `voice`, `response_format`): a tone as long as the
 *   text would take to say (≈ 60 ms a character, at most 4 s): raw 24 kHz PCM16 for
 *   `response_format: pcm`, WAV for `wav`, else MP3; recorded in `speechRequests`.
 *
 * - `POST /v1/embeddings` (JSON: `model`, `input` a string or strings): the deterministic
 *   embedder of `fake-embedder.ts`; recorded in `embeddingRequests`.
 * - `setResponder(fn)`: a chat completion's text chosen per request (`fn(body)`; undefined:
 *   the behaviour's) — structured-output tests answer JSON to `response_format` requests.
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
  /** A wait before the first piece of a stream (the model's time to first token). */
  firstDelayMs?: number;
}

/** How `/v1/audio/transcriptions` answers. */
export interface FakeSttBehaviour {
  /** The transcript; a function gets the request's number (0 first) and its samples. */
  text: string | ((index: number, samples: Int16Array) => string);
  delayMs?: number;
  /** An error status instead of an answer. */
  status?: number;
}

/** How `/v1/audio/speech` answers. */
export interface FakeSpeechBehaviour {
  /** The wait before the first byte. */
  delayMs?: number;
  status?: number;
  /** Milliseconds of sound per character of the text (60). */
  msPerChar?: number;
}

export interface FakeTranscription {
  model: string;
  language: string | null;
  responseFormat: string | null;
  /** The uploaded WAV's sample rate and samples. */
  sampleRate: number;
  samples: Int16Array;
}

export interface FakeOpenAi {
  /** The API base, ending in `/v1`. */
  url: string;
  /** The JSON bodies of the chat completion requests received, oldest first. */
  requests: Record<string, unknown>[];
  /** The headers of those requests, in the same order. */
  headers: http.IncomingHttpHeaders[];
  setBehaviour(behaviour: FakeOpenAiBehaviour): void;
  /** The text of each chat completion, chosen per request; undefined falls back to the behaviour. */
  setResponder(responder: ((body: Record<string, unknown>) => string | undefined) | null): void;
  embeddingRequests: Record<string, unknown>[];
  transcriptions: FakeTranscription[];
  speechRequests: Record<string, unknown>[];
  setStt(behaviour: FakeSttBehaviour): void;
  setSpeech(behaviour: FakeSpeechBehaviour): void;
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

/** A WAV file's sample rate and 16-bit samples (the fake reads what lib/pcm.ts writes). */
function readWav(data: Buffer): { sampleRate: number; samples: Int16Array } {
  if (data.length < 44 || data.toString('ascii', 0, 4) !== 'RIFF') return { sampleRate: 0, samples: new Int16Array(0) };
  const sampleRate = data.readUInt32LE(24);
  const length = Math.floor((data.length - 44) / 2);
  const samples = new Int16Array(length);
  for (let i = 0; i < length; i++) samples[i] = data.readInt16LE(44 + i * 2);
  return { sampleRate, samples };
}

/** A soft 220 Hz tone of this length at 24 kHz (what the fake "says"). */
function tone(ms: number, sampleRate = 24_000): Int16Array {
  const out = new Int16Array(Math.round((sampleRate * ms) / 1000));
  for (let i = 0; i < out.length; i++) out[i] = Math.round(6000 * Math.sin((2 * Math.PI * 220 * i) / sampleRate));
  return out;
}

export async function startFakeOpenAi(options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
  let behaviour: FakeOpenAiBehaviour = options.behaviour ?? { mode: 'ok' };
  let sttBehaviour: FakeSttBehaviour = { text: '' };
  let speechBehaviour: FakeSpeechBehaviour = {};
  const transcriptions: FakeTranscription[] = [];
  /** MP3s already encoded, by length: the fake should cost as little as possible. */
  const mp3s = new Map<number, Promise<Buffer>>();
  const speechRequests: Record<string, unknown>[] = [];
  const requests: Record<string, unknown>[] = [];
  const embeddingRequests: Record<string, unknown>[] = [];
  let responder: ((body: Record<string, unknown>) => string | undefined) | null = null;
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

  const listener: http.RequestListener = (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (req.method === 'GET' && url.pathname === '/v1/models') {
      const ids = options.models ?? ['fake-model'];
      sendJson(res, { object: 'list', data: ids.map((id) => ({ id, object: 'model', owned_by: 'fake' })) });
      return;
    }
    if (req.method === 'POST' && url.pathname === '/v1/audio/transcriptions') {
      void transcribe(req, res);
      return;
    }
    if (req.method === 'POST' && url.pathname === '/v1/audio/speech') {
      void speak(req, res);
      return;
    }
    if (req.method === 'POST' && url.pathname === '/v1/embeddings') {
      void embed(req, res);
      return;
    }
    if (req.method !== 'POST' || url.pathname !== '/v1/chat/completions') {
      sendJson(res, { error: { message: `no route ${req.method} ${url.pathname}`, type: 'not_found' } }, 404);
      return;
    }
    void complete(req, res);
  };

  const fail = (res: http.ServerResponse, status: number, message: string) =>
    sendJson(res, { error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error' } }, status);

  /** The JSON body of a request, or null after answering 400. */
  async function readJson(req: http.IncomingMessage, res: http.ServerResponse) {
    try {
      return JSON.parse((await readBody(req)).toString('utf8')) as Record<string, unknown>;
    } catch {
      fail(res, 400, 'the body is not JSON');
      return null;
    }
  }

  async function complete(req: http.IncomingMessage, res: http.ServerResponse) {
    const body = await readJson(req, res);
    if (!body) return;
    requests.push(body);
    headers.push(req.headers);
    const text = responder?.(body);
    await answer(body, res, text === undefined ? { ...behaviour } : { ...behaviour, text });
  }

  async function embed(req: http.IncomingMessage, res: http.ServerResponse) {
    const body = await readJson(req, res);
    if (!body) return;
    embeddingRequests.push(body);
    const input = typeof body.input === 'string' ? [body.input] : Array.isArray(body.input) ? body.input : null;
    if (!input || !input.every((x): x is string => typeof x === 'string')) {
      fail(res, 400, 'input must be a string or strings');
      return;
    }
    sendJson(res, {
      object: 'list',
      model: body.model,
      data: input.map((text, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(text) })),
    });
  }

  async function transcribe(req: http.IncomingMessage, res: http.ServerResponse) {
    const now = { ...sttBehaviour };
    const raw = await readBody(req);
    let form: FormData;
    try {
      // The multipart body, parsed by the platform's own parser.
      form = await new Request('http://fake/', {
        method: 'POST',
        headers: { 'content-type': req.headers['content-type'] ?? '' },
        body: new Uint8Array(raw),
      }).formData();
    } catch {
      fail(res, 400, 'the body is not multipart/form-data');
      return;
    }
    const file = form.get('file');
    const model = form.get('model');
    if (!(file instanceof Blob) || typeof model !== 'string') {
      fail(res, 400, 'file and model are required');
      return;
    }
    const wav = readWav(Buffer.from(await file.arrayBuffer()));
    const language = form.get('language');
    const format = form.get('response_format');
    const index = transcriptions.length;
    transcriptions.push({
      model,
      language: typeof language === 'string' ? language : null,
      responseFormat: typeof format === 'string' ? format : null,
      ...wav,
    });
    if (now.delayMs) await sleep(now.delayMs);
    if (now.status) {
      fail(res, now.status, `fake failure ${now.status}`);
      return;
    }
    sendJson(res, { text: typeof now.text === 'function' ? now.text(index, wav.samples) : now.text });
  }

  async function speak(req: http.IncomingMessage, res: http.ServerResponse) {
    const now = { ...speechBehaviour };
    const body = await readJson(req, res);
    if (!body) return;
    speechRequests.push(body);
    if (typeof body.input !== 'string' || typeof body.voice !== 'string') {
      fail(res, 400, 'input and voice are required');
      return;
    }
    if (now.delayMs) await sleep(now.delayMs);
    if (now.status) {
      fail(res, now.status, `fake failure ${now.status}`);
      return;
    }
    const samples = tone(Math.min(4000, Math.max(200, body.input.length * (now.msPerChar ?? 60))));
    if (body.response_format === 'pcm') {
      res.writeHead(200, { 'content-type': 'audio/pcm' });
      res.end(Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength));
    } else if (body.response_format === 'wav') {
      res.writeHead(200, { 'content-type': 'audio/wav' });
      res.end(wavFile(samples, 24_000));
    } else {
      let mp3 = mp3s.get(samples.length);
      if (!mp3) mp3s.set(samples.length, (mp3 = encodeMp3(samples, 24_000, 32)));
      const data = await mp3;
      res.writeHead(200, { 'content-type': 'audio/mpeg' });
      res.end(data);
    }
  }

  async function answer(body: Record<string, unknown>, res: http.ServerResponse, now: FakeOpenAiBehaviour) {
    if (now.mode === 'fail') {
      const status = now.status ?? 500;
      const error = { message: now.text ?? `fake failure ${status}`, type: 'server_error' };
      sendJson(res, { error }, status, status === 429 ? { 'retry-after': '7' } : {});
      return;
    }
    const model = typeof body.model === 'string' ? body.model : 'fake-model';
    const id = `chatcmpl-fake-${requests.length}`;
    const created = 1_700_000_000;
    if (body.stream !== true) {
      const text = now.text ?? `Echo: ${lastUserMessage(body)}`;
      if (now.mode === 'hang') return; // never answers; the client gives up
      if (now.mode === 'slow') await sleep(now.delayMs ?? 50);
      sendJson(res, {
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      });
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
    if (now.firstDelayMs) await sleep(now.firstDelayMs);
    for (const piece of splitReply(now.text ?? `Echo: ${lastUserMessage(body)}`)) {
      if (now.mode === 'slow') await sleep(now.delayMs ?? 50);
      if (res.destroyed) return;
      send({ delta: { content: piece }, finish_reason: null });
    }
    send({ delta: {}, finish_reason: 'stop' });
    if (!res.destroyed) res.end('data: [DONE]\n\n');
  }

  const server = await listenOnLoopback(listener, options.port ?? 0);
  return {
    url: `${server.url}/v1`,
    requests,
    headers,
    setBehaviour(next) {
      behaviour = next;
    },
    setResponder(next) {
      responder = next;
    },
    embeddingRequests,
    transcriptions,
    speechRequests,
    setStt(next) {
      sttBehaviour = next;
    },
    setSpeech(next) {
      speechBehaviour = next;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await server.close();
    },
  };
}
