import http, { STATUS_CODES, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { TextDecoder } from 'node:util';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ChunkReader } from './chunk-reader.js';
import { estimateTokens, LlmError, type GenerateRequest, type LlmProvider, type ModelEntry } from './llm.js';

export interface OpenAiLlmOptions {
  /** The API base, e.g. https://api.openai.com/v1 (`/chat/completions` is appended). */
  baseUrl: string;
  apiKey?: string;
  /** The catalogue; the first entry is the default model. */
  models: ModelEntry[];
  /** Milliseconds without any byte from the endpoint before a generation fails with `timeout`. */
  idleTimeoutMs: number;
  /** The temperature when a request gives none (the endpoint's default when unset). */
  temperature?: number;
  /** The `/embeddings` model (LLM_EMBEDDINGS_MODEL): `embed` exists only when it is set. */
  embeddingsModel?: string;
}

/** An answer of the endpoint: its status, headers and body (a Node stream of bytes). */
interface Answer {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: IncomingMessage;
}

/** Connections to the endpoint are kept open between requests (one pool per process). */
const agents = {
  'http:': new http.Agent({ keepAlive: true, keepAliveMsecs: 10_000 }),
  'https:': new https.Agent({ keepAlive: true, keepAliveMsecs: 10_000 }),
};

/**
 * POSTs `payload` with node:http(s) and resolves with the answer once its headers arrive.
 * Rather than `fetch`: no WHATWG streams between the socket and the parser, about a third
 * less CPU per reply on the way to the model (bench/README.md, "Chat").
 */
function post(
  endpoint: string,
  headers: Record<string, string>,
  payload: string,
  signal: AbortSignal,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch (error) {
      reject(error);
      return;
    }
    const client = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : null;
    if (!client) {
      reject(new Error(`unsupported protocol ${url.protocol}`));
      return;
    }
    const request = client.request(
      url,
      {
        method: 'POST',
        agent: agents[url.protocol as 'http:' | 'https:'],
        headers: { ...headers, 'content-length': String(Buffer.byteLength(payload)) },
        signal,
      },
      (response) => resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, body: response }),
    );
    request.on('error', reject);
    request.end(payload);
  });
}

/** How long a complete answer may take to end before its connection is given up. */
const DRAIN_MS = 5_000;

/**
 * Reads what is left of a complete answer (its end, nothing more is used) so that the agent
 * keeps the connection for the next request; an answer that does not end soon is closed.
 */
function drainToPool(body: IncomingMessage): void {
  // What a reader still listens for would keep what follows (and pause the body when full).
  body.removeAllListeners('data');
  const giveUp = setTimeout(() => body.destroy(), DRAIN_MS);
  giveUp.unref();
  body.once('close', () => clearTimeout(giveUp));
  body.on('error', () => undefined);
  body.resume();
}

/** The whole body as text (at most `limit` characters kept). */
async function readText(body: IncomingMessage, limit: number): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of body as AsyncIterable<Buffer>) {
    if (text.length < limit) text += decoder.decode(chunk, { stream: true });
  }
  return (text + decoder.decode()).slice(0, limit);
}

interface CompletionChunk {
  choices?: {
    delta?: { content?: string | null };
    message?: { content?: string | null };
    finish_reason?: string | null;
  }[];
  error?: { message?: string } | string;
}

/**
 * Any OpenAI-compatible `/chat/completions` endpoint (OpenAI, OpenRouter, vLLM, llama.cpp
 * server, Ollama…), streamed as server-sent events. Errors are `LlmError`s whose messages
 * name the endpoint and the status but never the API key.
 */
export class OpenAiLlmProvider implements LlmProvider {
  private readonly endpoint: string;
  /** Basic credentials written into LLM_BASE_URL (user:password@host), sent as a header. */
  private readonly basicAuth?: string;
  private readonly secrets: string[];

  constructor(private readonly options: OpenAiLlmOptions) {
    if (options.models.length === 0) throw new Error('The openai LLM provider needs at least one model');
    if (options.embeddingsModel) this.embed = (texts, signal) => this.embeddings(texts, signal);
    let endpoint = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    const secrets = options.apiKey ? [options.apiKey] : [];
    try {
      const url = new URL(endpoint);
      if (url.username || url.password) {
        // Credentials in the URL travel as a header (and never appear in messages).
        const user = decodeURIComponent(url.username);
        const password = decodeURIComponent(url.password);
        this.basicAuth = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
        if (password) secrets.push(password, url.password);
        url.username = '';
        url.password = '';
        endpoint = url.href;
      }
    } catch {
      // An invalid URL: the first generation reports it.
    }
    this.endpoint = endpoint;
    this.secrets = secrets.filter((secret) => secret.length >= 4);
  }

  /** `POST {base}/embeddings` (docs/memory.md): one vector per text, in order. */
  embed?: (texts: string[], signal?: AbortSignal) => Promise<number[][]>;

  private async embeddings(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    if (texts.length === 0) return [];
    const url = this.endpoint.replace(/\/chat\/completions$/, '/embeddings');
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.options.apiKey
            ? { authorization: `Bearer ${this.options.apiKey}` }
            : this.basicAuth
              ? { authorization: this.basicAuth }
              : {}),
        },
        body: JSON.stringify({ model: this.options.embeddingsModel, input: texts }),
        signal: signal
          ? AbortSignal.any([signal, AbortSignal.timeout(this.options.idleTimeoutMs)])
          : AbortSignal.timeout(this.options.idleTimeoutMs),
      });
    } catch (error) {
      throw new LlmError(
        'provider_error',
        this.scrub(`Cannot reach the embeddings endpoint ${this.where()}: ${describe(error)}`),
      );
    }
    if (!response.ok)
      throw new LlmError('provider_error', `The embeddings endpoint ${this.where()} answered ${response.status}`);
    const body = (await response.json().catch(() => null)) as {
      data?: { index?: number; embedding?: unknown }[];
    } | null;
    const data = Array.isArray(body?.data) ? body.data : [];
    const vectors = data
      .slice()
      .sort((a, b) => (a.index ?? 0) - (b.index ?? 0))
      .map((item) =>
        Array.isArray(item.embedding) ? item.embedding.filter((x): x is number => typeof x === 'number') : [],
      );
    if (vectors.length !== texts.length || vectors.some((v) => v.length === 0))
      throw new LlmError('provider_error', `The embeddings endpoint ${this.where()} answered an unexpected body`);
    return vectors;
  }

  models(): ModelEntry[] {
    return this.options.models;
  }

  status() {
    return { ready: true } as const;
  }

  readonly estimatesTokens = true;

  countTokens(_model: string, text: string): number {
    return estimateTokens(text);
  }

  async *generate(request: GenerateRequest): AsyncIterable<string> {
    const model = this.options.models.find((entry) => entry.id === request.model);
    if (!model) throw new LlmError('model_unavailable', `The model "${request.model}" is not in the catalogue`);
    request.signal.throwIfAborted();

    // One controller ends the request on the caller's abort or on silence from the endpoint.
    const controller = new AbortController();
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    let lastBytes = 0;
    // One timer for the whole answer; a read only notes its time, and the timer, when it fires
    // early, waits for the rest: a trickled stream reads once per token, and refreshing the
    // timer on each read moved it in Node's timer lists once per token.
    const idleMs = this.options.idleTimeoutMs;
    const check = () => {
      const quiet = performance.now() - lastBytes;
      if (quiet < idleMs) timer = setTimeout(check, idleMs - quiet);
      else {
        timedOut = true;
        controller.abort();
      }
    };
    const arm = () => {
      lastBytes = performance.now();
      timer ??= setTimeout(check, idleMs);
    };
    const onAbort = () => controller.abort();
    request.signal.addEventListener('abort', onAbort, { once: true });
    const fail = (error: unknown): never => {
      if (request.signal.aborted) throw request.signal.reason;
      if (timedOut)
        throw new LlmError(
          'timeout',
          `The language model endpoint ${this.where()} sent nothing for ${Math.round(this.options.idleTimeoutMs / 1000)} s`,
        );
      if (error instanceof LlmError) throw error;
      throw new LlmError(
        'provider_error',
        this.scrub(`Cannot reach the language model endpoint ${this.where()}: ${describe(error)}`),
      );
    };

    let body: IncomingMessage | undefined;
    /** The answer was read to its end (`[DONE]`, or the whole JSON completion). */
    let complete = false;
    try {
      arm();
      let answer: Answer;
      try {
        answer = await post(
          this.endpoint,
          {
            'content-type': 'application/json',
            accept: 'text/event-stream',
            ...(this.options.apiKey
              ? { authorization: `Bearer ${this.options.apiKey}` }
              : this.basicAuth
                ? { authorization: this.basicAuth }
                : {}),
          },
          JSON.stringify({
            model: model.id,
            messages: request.messages,
            stream: true,
            max_tokens: request.maxTokens,
            ...(request.jsonSchema
              ? {
                  response_format: {
                    type: 'json_schema',
                    json_schema: { name: request.jsonSchema.name, strict: true, schema: request.jsonSchema.schema },
                  },
                }
              : {}),
            ...((request.temperature ?? this.options.temperature) === undefined
              ? {}
              : { temperature: request.temperature ?? this.options.temperature }),
          }),
          controller.signal,
        );
      } catch (error) {
        return fail(error);
      }
      body = answer.body;
      if (answer.statusCode < 200 || answer.statusCode >= 300) throw await this.httpError(answer);

      const type = headerOf(answer.headers, 'content-type') ?? '';
      const chunks = new ChunkReader(body);
      const decoder = new TextDecoder();
      if (type.includes('application/json')) {
        // The endpoint ignored `stream: true` and answered the whole completion at once.
        const text = await readAll(chunks, decoder, arm).catch(fail);
        const content = parseJson(text)?.choices?.[0]?.message?.content;
        if (typeof content !== 'string') throw this.badStream('an answer without a message');
        complete = true;
        if (content) yield content;
        return;
      }

      const pieces: string[] = [];
      let done = false;
      let finished = false;
      let streamError: LlmError | undefined;
      const parser = createParser({
        onEvent: (event: EventSourceMessage) => {
          if (done || streamError) return;
          if (event.data.trim() === '[DONE]') {
            done = true;
            return;
          }
          const chunk = parseJson(event.data);
          if (!chunk) {
            streamError = this.badStream('an event that is not JSON');
            return;
          }
          if (chunk.error) {
            const message = typeof chunk.error === 'string' ? chunk.error : (chunk.error.message ?? 'unknown error');
            streamError = new LlmError(
              'provider_error',
              this.scrub(`The language model endpoint ${this.where()} failed: ${message}`),
            );
            return;
          }
          const choice = chunk.choices?.[0];
          const content = choice?.delta?.content ?? choice?.message?.content;
          if (typeof content === 'string' && content) pieces.push(content);
          if (choice?.finish_reason) finished = true;
        },
      });
      while (!done) {
        let read: Buffer | null;
        try {
          read = await chunks.next();
        } catch (error) {
          return fail(error);
        }
        arm();
        if (read === null) break;
        parser.feed(decoder.decode(read, { stream: true }));
        if (streamError) throw streamError;
        // The pieces of one network read go on as one: the reply's text is the same, and each
        // piece costs a turn of the generator and of everything that consumes it.
        if (pieces.length === 1) yield pieces.pop()!;
        else if (pieces.length) yield pieces.splice(0).join('');
      }
      if (!done && !finished) throw this.badStream('a stream that ended before the reply was complete');
      complete = true;
    } finally {
      clearTimeout(timer);
      request.signal.removeEventListener('abort', onAbort);
      // A complete answer's connection goes back to the pool once its last bytes are read
      // (the end of the response usually follows `[DONE]` at once): destroying it would make
      // the next reply connect again (and shake hands again over TLS). A caller that stopped
      // early (break, abort, error) stops the download instead.
      if (body && !body.readableEnded) {
        if (complete) drainToPool(body);
        else body.destroy();
      } else if (!body) controller.abort();
    }
  }

  /** The endpoint for messages: no credentials, no query string. */
  private where(): string {
    try {
      const url = new URL(this.endpoint);
      return `${url.protocol}//${url.host}${url.pathname}`;
    } catch {
      return 'the configured LLM_BASE_URL';
    }
  }

  /** Removes the API key (and any password of the base URL) from a message. */
  private scrub(message: string): string {
    return this.secrets.reduce((text, secret) => text.split(secret).join('[LLM_API_KEY]'), message);
  }

  private badStream(what: string): LlmError {
    return new LlmError('provider_error', `The language model endpoint ${this.where()} sent ${what}`);
  }

  private async httpError(answer: Answer): Promise<LlmError> {
    let detail = '';
    try {
      const text = await readText(answer.body, 2000);
      const body = parseJson(text);
      const error = body?.error;
      detail = (typeof error === 'string' ? error : error?.message) ?? text.replace(/\s+/g, ' ').trim().slice(0, 300);
    } catch {
      // The status says enough.
    }
    const reason = STATUS_CODES[answer.statusCode];
    const status = `${answer.statusCode}${reason ? ` ${reason}` : ''}`;
    const hint =
      answer.statusCode === 401 || answer.statusCode === 403
        ? ' (check LLM_API_KEY)'
        : answer.statusCode === 404
          ? ' (check LLM_BASE_URL and the model id)'
          : '';
    const message = this.scrub(
      `The language model endpoint ${this.where()} answered ${status}${hint}${detail ? `: ${detail}` : ''}`,
    );
    if (answer.statusCode === 429) {
      const retry = headerOf(answer.headers, 'retry-after');
      return new LlmError('rate_limited', retry ? `${message} (retry after ${retry} s)` : message);
    }
    return new LlmError('provider_error', message);
  }
}

function parseJson(text: string): CompletionChunk | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as CompletionChunk) : undefined;
  } catch {
    return undefined;
  }
}

async function readAll(chunks: ChunkReader, decoder: TextDecoder, onBytes: () => void): Promise<string> {
  let text = '';
  for (;;) {
    const chunk = await chunks.next();
    if (chunk === null) return text + decoder.decode();
    onBytes();
    text += decoder.decode(chunk, { stream: true });
  }
}

/** One header's value (the first, when the endpoint sent it twice). */
function headerOf(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Name the cause of a failed request (ECONNREFUSED, ENOTFOUND, a TLS error…). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const own = (error as Error & { code?: string }).code;
  if (own && !own.startsWith('UND_ERR'))
    return error.message.includes(own) ? error.message : `${own} (${error.message})`;
  const cause = (error as Error & { cause?: unknown }).cause;
  if (cause instanceof Error) {
    const code = (cause as Error & { code?: string }).code;
    return code ? `${code} (${cause.message})` : cause.message;
  }
  return error.message;
}
