import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freePort, listenOnLoopback } from '../../../test/fake-http.js';
import { startFakeOpenAi, type FakeOpenAi } from '../../../test/fake-openai.js';
import { LlmError, type GenerateRequest } from './llm.js';
import { OpenAiLlmProvider } from './openai.js';
import { openAiCatalogue, parseModelCatalogue } from './catalogue.js';

const KEY = 'sk-test-secret-key-0123456789';

async function collect(iterable: AsyncIterable<string>): Promise<string[]> {
  const pieces: string[] = [];
  for await (const piece of iterable) pieces.push(piece);
  return pieces;
}

async function failure(iterable: AsyncIterable<string>): Promise<unknown> {
  try {
    await collect(iterable);
  } catch (error) {
    return error;
  }
  throw new Error('the generation did not fail');
}

function request(overrides: Partial<GenerateRequest> = {}): GenerateRequest {
  return {
    model: 'fake-model',
    messages: [
      { role: 'system', content: 'You are Ava.' },
      { role: 'user', content: 'hello there, how are you?' },
    ],
    maxTokens: 64,
    temperature: 0.5,
    signal: new AbortController().signal,
    ...overrides,
  };
}

describe('OpenAiLlmProvider against a fake OpenAI-compatible server', () => {
  let fake: FakeOpenAi;
  let provider: OpenAiLlmProvider;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    provider = new OpenAiLlmProvider({
      baseUrl: fake.url,
      apiKey: KEY,
      models: openAiCatalogue({ model: 'fake-model', models: 'big-model|Big|32000|premium', contextSize: 4096 }),
      idleTimeoutMs: 2000,
    });
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.setBehaviour({ mode: 'ok' }));

  it('streams the reply in order and sends the request the endpoint expects', async () => {
    // The fake writes every chunk at once: the pieces of one network read come as one.
    const pieces = await collect(provider.generate(request()));
    expect(pieces.length).toBeGreaterThanOrEqual(1);
    expect(pieces.join('')).toBe('Echo: hello there, how are you?');
    const body = fake.requests.at(-1);
    expect(body).toMatchObject({ model: 'fake-model', stream: true, max_tokens: 64, temperature: 0.5 });
    expect(body?.messages).toEqual(request().messages);
    expect(fake.headers.at(-1)?.authorization).toBe(`Bearer ${KEY}`);
  });

  it('streams a given text piece by piece, slowly', async () => {
    fake.setBehaviour({ mode: 'slow', text: 'one two three four', delayMs: 20 });
    const seen: string[] = [];
    for await (const piece of provider.generate(request({ model: 'big-model' }))) seen.push(piece);
    expect(seen).toEqual(['one ', 'two ', 'three ', 'four']);
    expect(fake.requests.at(-1)?.model).toBe('big-model');
  });

  it('sends no Authorization header without a key', async () => {
    const open = new OpenAiLlmProvider({ baseUrl: fake.url, models: provider.models(), idleTimeoutMs: 2000 });
    await collect(open.generate(request()));
    expect(fake.headers.at(-1)?.authorization).toBeUndefined();
  });

  it('maps a 500 to provider_error', async () => {
    fake.setBehaviour({ mode: 'fail', status: 500, text: 'the GPU caught fire' });
    const error = await failure(provider.generate(request()));
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).code).toBe('provider_error');
    expect((error as LlmError).message).toContain('500');
    expect((error as LlmError).message).toContain('the GPU caught fire');
  });

  it('maps a 429 to rate_limited', async () => {
    fake.setBehaviour({ mode: 'fail', status: 429, text: 'slow down' });
    const error = (await failure(provider.generate(request()))) as LlmError;
    expect(error.code).toBe('rate_limited');
    expect(error.message).toContain('retry after 7 s');
  });

  it('never puts the API key in an error, even when the endpoint echoes it', async () => {
    fake.setBehaviour({ mode: 'fail', status: 401, text: `Incorrect API key provided: ${KEY}` });
    const error = (await failure(provider.generate(request()))) as LlmError;
    expect(error.code).toBe('provider_error');
    expect(error.message).toContain('401');
    expect(error.message).toContain('LLM_API_KEY');
    expect(error.message).not.toContain(KEY);
    expect(error.stack ?? '').not.toContain(KEY);
  });

  it('ends promptly when the caller aborts a hanging stream', async () => {
    fake.setBehaviour({ mode: 'hang' });
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(new Error('stopped by the user')), 150);
    const error = await failure(provider.generate(request({ signal: controller.signal })));
    expect((error as Error).message).toBe('stopped by the user');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('stops a reply mid-stream on abort', async () => {
    fake.setBehaviour({ mode: 'slow', text: 'a b c d e f g h i j k l m n o p', delayMs: 40 });
    const controller = new AbortController();
    const seen: string[] = [];
    const error = await (async () => {
      try {
        for await (const piece of provider.generate(request({ signal: controller.signal }))) {
          seen.push(piece);
          if (seen.length === 2) controller.abort();
        }
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeDefined();
    expect(seen).toEqual(['a ', 'b ']);
  });

  it('waits as long as the endpoint keeps sending, however long the whole answer takes', async () => {
    // Each piece comes well within the idle timeout; the answer as a whole takes longer than it.
    fake.setBehaviour({ mode: 'slow', text: 'one two three four five six seven', delayMs: 60 });
    const quick = new OpenAiLlmProvider({ baseUrl: fake.url, models: provider.models(), idleTimeoutMs: 250 });
    const started = performance.now();
    expect((await collect(quick.generate(request()))).join('')).toBe('one two three four five six seven');
    expect(performance.now() - started).toBeGreaterThan(250);
  });

  it('fails with timeout when the endpoint goes silent', async () => {
    fake.setBehaviour({ mode: 'hang' });
    const quick = new OpenAiLlmProvider({ baseUrl: fake.url, models: provider.models(), idleTimeoutMs: 200 });
    const error = (await failure(quick.generate(request()))) as LlmError;
    expect(error.code).toBe('timeout');
  });

  it('fails with timeout when the endpoint goes silent in the middle of an answer', async () => {
    // Pieces within the timeout push it back; the silence after them still ends the answer.
    const endpoint = await listenOnLoopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let sent = 0;
      const next = () => {
        if (sent++ < 4) {
          res.write(`data: {"choices":[{"delta":{"content":"p${sent} "}}]}\n\n`);
          setTimeout(next, 80);
        }
      };
      next();
    });
    try {
      const quick = new OpenAiLlmProvider({
        baseUrl: `${endpoint.url}/v1`,
        models: provider.models(),
        idleTimeoutMs: 200,
      });
      const seen: string[] = [];
      const started = performance.now();
      const error = (await failure(
        (async function* () {
          for await (const piece of quick.generate(request())) {
            seen.push(piece);
            yield piece;
          }
        })(),
      )) as LlmError;
      expect(error.code).toBe('timeout');
      expect(seen.join('')).toBe('p1 p2 p3 p4 ');
      // The last piece came at ≈ 240 ms: the timeout counts from it, not from the first.
      expect(performance.now() - started).toBeGreaterThan(420);
    } finally {
      await endpoint.close();
    }
  });

  it('maps an unreachable endpoint to provider_error naming the cause', async () => {
    const port = await freePort();
    const down = new OpenAiLlmProvider({
      baseUrl: `http://user:${KEY}@127.0.0.1:${port}/v1`,
      apiKey: KEY,
      models: provider.models(),
      idleTimeoutMs: 2000,
    });
    const error = (await failure(down.generate(request()))) as LlmError;
    expect(error.code).toBe('provider_error');
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.message).not.toContain(KEY);
  });

  it('maps a broken stream to provider_error', async () => {
    const broken = await listenOnLoopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"choices":[{"delta":{"content":"Hi"}}]}\n\n');
      res.end('data: {not json\n\n');
    });
    try {
      const p = new OpenAiLlmProvider({
        baseUrl: `${broken.url}/v1`,
        models: provider.models(),
        idleTimeoutMs: 2000,
      });
      const error = (await failure(p.generate(request()))) as LlmError;
      expect(error.code).toBe('provider_error');
      expect(error.message).toContain('not JSON');
    } finally {
      await broken.close();
    }
  });

  it('keeps the connection for the next reply when an answer is complete, and closes it when stopped early', async () => {
    let connections = 0;
    let answers = 0;
    const endpoint = await listenOnLoopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"choices":[{"delta":{"content":"Hi"}}]}\n\n');
      // The end follows [DONE] in the same write, as OpenAI-compatible servers do; the fourth
      // answer (the one stopped) is still streaming when its caller stops.
      const end = () => res.end('data: {"choices":[{"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n');
      if (++answers === 4) setTimeout(end, 200);
      else end();
    });
    endpoint.server.on('connection', () => connections++);
    try {
      const p = new OpenAiLlmProvider({
        baseUrl: `${endpoint.url}/v1`,
        models: provider.models(),
        idleTimeoutMs: 2000,
      });
      for (let i = 0; i < 3; i++) {
        expect((await collect(p.generate(request()))).join('')).toBe('Hi');
        // The drained socket returns to the pool on the next turns of the event loop.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(connections).toBe(1);

      // Stopped after the first piece: that connection is closed, the next reply opens another.
      for await (const piece of p.generate(request())) {
        expect(piece).toBe('Hi');
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
      await collect(p.generate(request()));
      expect(connections).toBe(2);
    } finally {
      await endpoint.close();
    }
  });

  it('refuses a model that is not in the catalogue', async () => {
    const error = (await failure(provider.generate(request({ model: 'unknown' })))) as LlmError;
    expect(error.code).toBe('model_unavailable');
  });

  it('answers a non-streamed completion and lists models (the fake serves both)', async () => {
    const completion = await fetch(`${fake.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'fake-model', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(await completion.json()).toMatchObject({ choices: [{ message: { content: 'Echo: hi' } }] });
    const models = await fetch(`${fake.url}/models`);
    expect(await models.json()).toMatchObject({ data: [{ id: 'fake-model' }] });
  });
});

describe('the model catalogue (LLM_MODELS)', () => {
  it('reads id|label|context|premium entries', () => {
    expect(parseModelCatalogue('a, b|Bee|8000 , c|Cee||premium', { contextSize: 4096 })).toEqual([
      { id: 'a', label: 'a', contextSize: 4096, premium: false },
      { id: 'b', label: 'Bee', contextSize: 8000, premium: false },
      { id: 'c', label: 'Cee', contextSize: 4096, premium: true },
    ]);
  });

  it('reads the JSON form', () => {
    expect(
      parseModelCatalogue('[{"id":"gpt-4o","label":"GPT-4o","context_size":128000,"premium":true}]', {
        contextSize: 4096,
      }),
    ).toEqual([{ id: 'gpt-4o', label: 'GPT-4o', contextSize: 128000, premium: true }]);
  });

  it('puts LLM_MODEL first, adding it when it is not listed', () => {
    expect(openAiCatalogue({ model: 'b', models: 'a,b', contextSize: 4096 }).map((m) => m.id)).toEqual(['b', 'a']);
    expect(openAiCatalogue({ model: 'z', models: 'a', contextSize: 4096 }).map((m) => m.id)).toEqual(['z', 'a']);
    expect(openAiCatalogue({ models: 'a|A', contextSize: 4096 })[0]).toEqual({
      id: 'a',
      label: 'A',
      provider: 'openai',
      contextSize: 4096,
      premium: false,
    });
  });

  it('rejects malformed entries with a clear message', () => {
    expect(() => parseModelCatalogue('a|A|big', { contextSize: 4096 })).toThrow(/context size/);
    expect(() => parseModelCatalogue('a|A|4096|gold', { contextSize: 4096 })).toThrow(/premium/);
    expect(() => parseModelCatalogue('a,a', { contextSize: 4096 })).toThrow(/twice/);
    expect(() => parseModelCatalogue('[{"label":"x"}]', { contextSize: 4096 })).toThrow(/id/);
  });
});
