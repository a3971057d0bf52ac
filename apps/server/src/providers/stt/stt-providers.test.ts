import { LocalSttProvider } from './local.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../../../test/fake-openai.js';
import { testConfig } from '../../../test/helpers.js';
import { createSttProvider, OpenAiSttProvider, SttError, UnavailableSttProvider } from './index.js';

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(async () => {
  await fake.close();
});

const pcm = () => {
  const samples = new Int16Array(16_000);
  for (let i = 0; i < samples.length; i++) samples[i] = Math.round(3000 * Math.sin(i / 5));
  return samples;
};

async function failure(promise: Promise<unknown>): Promise<SttError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(SttError);
    return error as SttError;
  }
  throw new Error('expected a failure');
}

describe('OpenAiSttProvider', () => {
  it('sends the utterance as a 16 kHz WAV in a multipart form, with the model and the ISO-639-1 language', async () => {
    const stt = new OpenAiSttProvider({ baseUrl: fake.url, apiKey: 'k', model: 'whisper-1', timeoutMs: 5000 });
    fake.setStt({ text: '  你好  ' });
    const samples = pcm();
    expect(await stt.transcribe({ pcm: samples, sampleRate: 16_000, language: 'ch' })).toEqual({ text: '你好' });
    const asked = fake.transcriptions.at(-1)!;
    expect(asked).toMatchObject({ model: 'whisper-1', language: 'zh', responseFormat: 'json', sampleRate: 16_000 });
    expect(Array.from(asked.samples.slice(0, 50))).toEqual(Array.from(samples.slice(0, 50)));
    expect(asked.samples.length).toBe(samples.length);
    // No language: the model detects it.
    await stt.transcribe({ pcm: samples, sampleRate: 16_000, language: null });
    expect(fake.transcriptions.at(-1)!.language).toBeNull();
    expect(stt.status()).toEqual({ state: 'ready' });
  });

  it('turns failures into SttErrors: an error status, a time limit, an abort', async () => {
    const stt = new OpenAiSttProvider({ baseUrl: fake.url, model: 'whisper-1', timeoutMs: 200 });
    fake.setStt({ text: 'x', status: 500 });
    expect((await failure(stt.transcribe({ pcm: pcm(), sampleRate: 16_000, language: 'en' }))).code).toBe(
      'provider_error',
    );
    fake.setStt({ text: 'x', delayMs: 1000 });
    expect((await failure(stt.transcribe({ pcm: pcm(), sampleRate: 16_000, language: 'en' }))).code).toBe('timeout');
    const controller = new AbortController();
    const pending = stt.transcribe({ pcm: pcm(), sampleRate: 16_000, language: 'en', signal: controller.signal });
    controller.abort();
    expect((await failure(pending)).code).toBe('aborted');
    const nowhere = new OpenAiSttProvider({ baseUrl: 'http://127.0.0.1:9', model: 'm', timeoutMs: 2000 });
    expect((await failure(nowhere.transcribe({ pcm: pcm(), sampleRate: 16_000, language: 'en' }))).code).toBe(
      'provider_error',
    );
    fake.setStt({ text: '' });
  });
});

describe('createSttProvider', () => {
  const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
  it('chooses by STT_PROVIDER: openai, local (Whisper pulled on first use), none (unavailable)', async () => {
    expect(createSttProvider(testConfig({ STT_PROVIDER: 'openai' }), log)).toBeInstanceOf(OpenAiSttProvider);
    const local = createSttProvider(testConfig({ STT_PROVIDER: 'local' }), log);
    expect(local).toBeInstanceOf(LocalSttProvider);
    // Nothing is pulled before the first call asks for it.
    expect(local.status()).toEqual({ state: 'loading', progress: null });
    const stt = createSttProvider(testConfig({ STT_PROVIDER: 'none' }), log);
    expect(stt).toBeInstanceOf(UnavailableSttProvider);
    expect(stt.status().state).toBe('unavailable');
    expect((await failure(stt.transcribe({ pcm: pcm(), sampleRate: 16_000, language: 'en' }))).code).toBe(
      'stt_unavailable',
    );
    expect((await failure(stt.prepare())).code).toBe('stt_unavailable');
  });
});
