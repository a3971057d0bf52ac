import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTinyGguf } from '../../../../../scripts/make-tiny-gguf.mjs';
import { freePort, listenOnLoopback } from '../../../test/fake-http.js';
import { LlmError, type GenerateRequest } from './llm.js';
import { LocalLlmProvider, modelName, type LocalLlmOptions } from './local.js';

/**
 * The local engine end to end: node-llama-cpp's prebuilt CPU binary on the tiny GGUF model
 * that scripts/make-tiny-gguf.mjs writes (random weights: the text is gibberish, but it is
 * the real tokenizer, chat template, sampler and context).
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-llm-'));
const modelFile = path.join(dir, 'tiny.gguf');

function logger() {
  const lines: { level: string; msg: string }[] = [];
  return {
    lines,
    info: (msg: string) => lines.push({ level: 'info', msg }),
    warn: (msg: string) => lines.push({ level: 'warn', msg }),
    error: (msg: string) => lines.push({ level: 'error', msg }),
  };
}

function provider(overrides: Partial<LocalLlmOptions> = {}) {
  const log = logger();
  const llm = new LocalLlmProvider({
    modelPath: modelFile,
    modelUri: 'hf:nobody/unused-GGUF:Q4_K_M',
    modelsDir: path.join(dir, 'models'),
    contextSize: 512,
    temperature: 0,
    threads: 2,
    parallel: 2,
    log,
    ...overrides,
  });
  return { llm, log };
}

function request(overrides: Partial<GenerateRequest> = {}): GenerateRequest {
  return {
    model: 'local',
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hello!' },
    ],
    maxTokens: 8,
    temperature: 0,
    signal: new AbortController().signal,
    ...overrides,
  };
}

async function text(iterable: AsyncIterable<string>): Promise<string> {
  let out = '';
  for await (const piece of iterable) out += piece;
  return out;
}

async function failure(iterable: AsyncIterable<string>): Promise<unknown> {
  try {
    await text(iterable);
  } catch (error) {
    return error;
  }
  throw new Error('the generation did not fail');
}

beforeAll(() => {
  writeTinyGguf(modelFile);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('LocalLlmProvider on the tiny GGUF model', () => {
  const { llm, log } = provider();
  afterAll(() => llm.close());

  it('is lazy: loading until warmed up, and a generation before then says so', async () => {
    expect(llm.status()).toMatchObject({ ready: false, code: 'model_loading' });
    const early = await failure(llm.generate(request()));
    expect(early).toBeInstanceOf(LlmError);
    expect((early as LlmError).code).toBe('model_loading');
    await llm.warmUp();
    expect(llm.status()).toEqual({ ready: true });
    expect(log.lines.some((line) => line.level === 'info' && line.msg.includes('language model ready'))).toBe(true);
    expect(log.lines.find((line) => line.msg.includes('language model ready'))?.msg).toContain('ChatML');
    expect(llm.models()).toEqual([{ id: 'local', label: 'tiny', provider: 'local', contextSize: 512, premium: false }]);
  });

  it('generates non-empty text, the same at temperature 0', async () => {
    const first = await text(llm.generate(request()));
    const second = await text(llm.generate(request()));
    expect(first.length).toBeGreaterThan(0);
    expect(second).toBe(first);
  });

  it('counts tokens with the model tokenizer', async () => {
    const count = await llm.countTokens('local', 'Hello world');
    expect(count).toBeGreaterThan(0);
    // A byte-level vocabulary: one token per byte, and the start token.
    expect(count).toBe(12);
  });

  it('serves more concurrent requests than sequences without crashing', async () => {
    const expected = await text(llm.generate(request()));
    const results = await Promise.all([1, 2, 3].map(() => text(llm.generate(request()))));
    expect(results).toEqual([expected, expected, expected]);
  });

  it('stops promptly when aborted', async () => {
    const controller = new AbortController();
    let pieces = 0;
    let abortedAt = 0;
    const error = await (async () => {
      try {
        for await (const _piece of llm.generate(request({ maxTokens: 400, signal: controller.signal }))) {
          pieces++;
          if (pieces === 2) {
            abortedAt = Date.now();
            controller.abort(new Error('stopped'));
          }
        }
      } catch (caught) {
        return caught;
      }
    })();
    expect((error as Error | undefined)?.message).toBe('stopped');
    expect(pieces).toBe(2);
    expect(Date.now() - abortedAt).toBeLessThan(1000);
    // The sequence is free again.
    expect((await text(llm.generate(request()))).length).toBeGreaterThan(0);
  });

  it('fails with timeout when no piece comes in time', async () => {
    const { llm: impatient } = provider({ idleTimeoutMs: 1 });
    await impatient.warmUp();
    const error = (await failure(impatient.generate(request()))) as LlmError;
    expect(error.code).toBe('timeout');
    await impatient.close();
  });

  it('refuses a model id it does not serve', async () => {
    const error = (await failure(llm.generate(request({ model: 'other' })))) as LlmError;
    expect(error.code).toBe('model_unavailable');
  });
});

describe('LocalLlmProvider when the model cannot be had', () => {
  it('reports a bad LLM_MODEL_PATH clearly, in the status and once in the log', async () => {
    const missing = path.join(dir, 'nope', 'model.gguf');
    const { llm, log } = provider({ modelPath: missing });
    await llm.warmUp();
    await llm.warmUp();
    const status = llm.status();
    expect(status).toMatchObject({ ready: false, code: 'model_unavailable' });
    expect(!status.ready && status.detail).toContain(`LLM_MODEL_PATH points at ${missing}, which does not exist`);
    expect(log.lines.filter((line) => line.level === 'error')).toHaveLength(1);
    const error = (await failure(llm.generate(request()))) as LlmError;
    expect(error.code).toBe('model_unavailable');
    await llm.close();
  });

  it('reports a file that is not a GGUF model', async () => {
    const junk = path.join(dir, 'junk.gguf');
    fs.writeFileSync(junk, 'not a model');
    const { llm } = provider({ modelPath: junk });
    await llm.warmUp();
    const status = llm.status();
    expect(!status.ready && status.detail).toContain(`Cannot load ${junk} as a GGUF language model`);
    await llm.close();
  });

  it('reports a model that cannot be downloaded (no internet)', async () => {
    const port = await freePort();
    const uri = `http://127.0.0.1:${port}/models/tiny.gguf`;
    const { llm } = provider({ modelPath: undefined, modelUri: uri });
    await llm.warmUp();
    const status = llm.status();
    expect(status).toMatchObject({ ready: false, code: 'model_unavailable' });
    expect(!status.ready && status.detail).toContain(`Cannot download the language model ${uri}`);
    expect(!status.ready && status.detail).toContain('LLM_MODEL_PATH');
    await llm.close();
  });

  it('pulls LLM_MODEL_URI into the models folder with progress in the log, then generates', async () => {
    const bytes = fs.readFileSync(modelFile);
    const server = await listenOnLoopback((req, res) => {
      if (req.url !== '/models/pulled.gguf') {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length });
      res.end(req.method === 'HEAD' ? undefined : bytes);
    });
    const modelsDir = path.join(dir, 'pulled-models');
    const { llm, log } = provider({
      modelPath: undefined,
      modelUri: `${server.url}/models/pulled.gguf`,
      modelsDir,
    });
    try {
      await llm.warmUp();
      expect(llm.status()).toEqual({ ready: true });
      expect(fs.readdirSync(modelsDir)).toContain('pulled.gguf');
      expect(log.lines.some((line) => /\[#+\.*\] \d+%/.test(line.msg))).toBe(true);
      expect((await text(llm.generate(request()))).length).toBeGreaterThan(0);
    } finally {
      await llm.close();
      await server.close();
    }
  });
});

describe('modelName', () => {
  it('makes a readable label from a URI or a path', () => {
    expect(modelName('hf:bartowski/Llama-3.2-1B-Instruct-GGUF:Q4_K_M')).toBe('Llama-3.2-1B-Instruct Q4_K_M');
    expect(modelName('/models/qwen2.5-0.5b-instruct-q4_k_m.gguf')).toBe('qwen2.5-0.5b-instruct-q4_k_m');
    expect(modelName('https://example.com/m/tiny.gguf')).toBe('tiny');
  });
});
