import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, testConfig } from '../../../test/helpers.js';
import { startFakeOpenAi } from '../../../test/fake-openai.js';
import { ConfigError } from '../../config.js';
import { createLlmProvider } from './index.js';
import { LocalLlmProvider } from './local.js';
import { OpenAiLlmProvider } from './openai.js';

const log = { info: () => {}, warn: () => {}, error: () => {} };

describe('createLlmProvider', () => {
  it('builds the local engine by default, lazily (nothing loads)', async () => {
    const llm = createLlmProvider(testConfig(), { modelsDir: '/tmp/reverie-test-data/models', log });
    expect(llm).toBeInstanceOf(LocalLlmProvider);
    expect(llm.status()).toMatchObject({ ready: false, code: 'model_loading' });
    expect(llm.models()[0]).toMatchObject({ id: 'local', provider: 'local', premium: false });
    await llm.close?.();
  });

  it('builds the OpenAI-compatible provider with the catalogue of LLM_MODEL and LLM_MODELS', () => {
    const llm = createLlmProvider(
      testConfig({ LLM_PROVIDER: 'openai', LLM_MODEL: 'small', LLM_MODELS: 'big|Big|32000|premium' }),
      { modelsDir: '/tmp/unused', log },
    );
    expect(llm).toBeInstanceOf(OpenAiLlmProvider);
    expect(llm.models().map((m) => [m.id, m.premium])).toEqual([
      ['small', false],
      ['big', true],
    ]);
  });

  it('refuses settings it cannot use, naming the variable', () => {
    expect(() => testConfig({ LLM_PROVIDER: 'openai' })).toThrow(ConfigError);
    expect(() => testConfig({ LLM_PROVIDER: 'openai' })).toThrow(/LLM_MODEL/);
    expect(() => testConfig({ LLM_MODELS: 'a|A|huge' })).toThrow(/LLM_MODELS/);
  });
});

describe('the app and its language model', () => {
  it('offers the configured provider as app.llm', async () => {
    const fake = await startFakeOpenAi();
    afterAll(() => fake.close());
    const { app } = await createTestApp({
      env: { LLM_PROVIDER: 'openai', LLM_BASE_URL: fake.url, LLM_MODEL: 'fake-model' },
    });
    let reply = '';
    for await (const piece of app.llm.generate({
      model: app.llm.models()[0]!.id,
      messages: [{ role: 'user', content: 'hi' }],
      maxTokens: 16,
      signal: new AbortController().signal,
    }))
      reply += piece;
    expect(reply).toBe('Echo: hi');
  });
});
