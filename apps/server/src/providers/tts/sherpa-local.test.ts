import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testConfig } from '../../../test/helpers.js';
import { ModelHosts } from '../../../test/model-host.js';
import { EspeakTtsProvider } from './espeak.js';
import { createTtsProvider } from './index.js';
import { ESPEAK_DATA_FILES, LocalTtsProvider, PIPER_VOICES, piperFiles, piperVoiceFor } from './sherpa-local.js';
import type { SpeechRequest, TtsProvider } from './tts-provider.js';

/**
 * The local neural voice without its models (none can be fetched here): the voice chosen for
 * each character, the pull from a host on the loopback, and espeak-ng speaking — never a
 * failure — while a voice is pulling, when it cannot be pulled and when it cannot be loaded.
 */

const hosts = new ModelHosts();
const providers: LocalTtsProvider[] = [];
afterEach(async () => {
  providers.splice(0).forEach((p) => p.close());
  await hosts.closeAll();
});

async function host(answer: (url: string, res: http.ServerResponse) => void) {
  const started = await hosts.start((req, res) => answer(req.url!, res), '/voices');
  return { url: started.url, requests: started.requests };
}

/** espeak-ng, recording what it was asked to say. */
class RecordingEspeak implements TtsProvider {
  readonly name = 'espeak';
  readonly asked: SpeechRequest[] = [];
  private readonly espeak = new EspeakTtsProvider();
  synthesise(request: SpeechRequest) {
    this.asked.push(request);
    return this.espeak.synthesise(request);
  }
}

function provider(baseUrl: string) {
  const dir = hosts.tempDir('reverie-tts-');
  const lines: string[] = [];
  const log = {
    info: (m: string) => lines.push(m),
    warn: (m: string) => lines.push(m),
    error: (m: string) => lines.push(m),
  };
  const fallback = new RecordingEspeak();
  const tts = new LocalTtsProvider({ baseUrl, dir, threads: 1, log, fallback, pull: { attempts: 1, stallMs: 2000 } });
  providers.push(tts);
  return { tts, dir, lines, fallback };
}

describe('Piper voices', () => {
  it('gives every language a woman’s voice and a man’s where Piper has one', () => {
    for (const [language, voices] of Object.entries(PIPER_VOICES)) {
      expect(voices.female, language).not.toBeNull();
      if (language !== 'ch') expect(voices.male, language).not.toBeNull();
    }
    expect(piperVoiceFor('en-us+f3', 'en')?.name).toBe('en_US-amy-medium');
    expect(piperVoiceFor('en-us+m1', 'en')?.name).toBe('en_US-ryan-medium');
    expect(piperVoiceFor('en-gb+f4', 'ru')?.name).toBe('ru_RU-irina-medium');
    expect(piperVoiceFor('de+m2', 'de')?.name).toBe('de_DE-thorsten-medium');
    expect(piperVoiceFor('en-us+f2', 'es')).toEqual({ name: 'es_ES-sharvard-medium', speaker: 1 });
    expect(piperVoiceFor('en-us+f2', 'ch')?.name).toBe('zh_CN-huayan-medium');
    expect(piperVoiceFor('en-us+m3', 'ch')).toBeNull();
    expect(piperFiles('ru_RU-irina-medium').map((f) => f.url)).toEqual([
      'https://huggingface.co/csukuangfj/vits-piper-ru_RU-irina-medium/resolve/main/ru_RU-irina-medium.onnx',
      'https://huggingface.co/csukuangfj/vits-piper-ru_RU-irina-medium/resolve/main/tokens.txt',
    ]);
  });

  it('is chosen by TTS_PROVIDER=local', () => {
    expect(createTtsProvider(testConfig({ TTS_PROVIDER: 'local' })).name).toBe('local');
  });
});

describe('LocalTtsProvider', () => {
  it('speaks with espeak-ng at once while the voice is pulling, in the character’s sex', async () => {
    const model = await host(() => undefined); // holds every download
    const { tts, fallback } = provider(model.url);
    const speech = await tts.synthesise({ text: 'Я ждала тебя.', voice: 'en-us+f3', language: 'ru' });
    expect(speech.format).toBe('pcm16');
    expect(speech.format === 'pcm16' && speech.sampleRate).toBe(22_050);
    expect(fallback.asked.map((r) => r.voice)).toEqual(['en-us+f3']);
    expect(tts.voiceStatus('ru_RU-irina-medium')).toEqual({ state: 'loading', progress: null });
    await new Promise((r) => setTimeout(r, 100));
    expect(model.requests[0]?.url).toBe('/voices/vits-piper-en_US-amy-medium/resolve/main/espeak-ng-data/phontab');
  });

  it('keeps speaking with espeak-ng when the voice cannot be pulled, without asking again and again', async () => {
    const model = await host((_url, res) => {
      res.writeHead(404);
      res.end();
    });
    const { tts, fallback, dir, lines } = provider(model.url);
    const voice = PIPER_VOICES.en.male!;
    await tts.prepare(voice);
    expect(tts.voiceStatus(voice.name)).toMatchObject({ state: 'unavailable', reason: expect.stringMatching(/404/) });
    expect(lines.some((l) => /espeak-ng speaks instead/.test(l))).toBe(true);
    const asked = model.requests.length;
    const speech = await tts.synthesise({ text: 'Hello there.', voice: 'en-us+m3', language: 'en' });
    expect(speech.format).toBe('pcm16');
    expect(fallback.asked).toHaveLength(1);
    expect(model.requests.length).toBe(asked);
    expect(
      fs
        .readdirSync(dir, { recursive: true })
        .map(String)
        .filter((n) => n.endsWith('.part')),
    ).toEqual([]);
  });

  it('pulls the voice and espeak-ng’s data, and falls back when the files are not a voice', async () => {
    const model = await host((_url, res) => {
      const body = Buffer.alloc(50_000, 3);
      res.writeHead(200, { 'content-length': body.length });
      res.end(body);
    });
    const { tts, dir, fallback } = provider(model.url);
    const voice = PIPER_VOICES.de.female!;
    await tts.prepare(voice);
    expect(model.requests).toHaveLength(ESPEAK_DATA_FILES.length + 2);
    expect(fs.existsSync(path.join(dir, 'espeak-ng-data/lang/sit/cmn'))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'de_DE-kerstin-low/de_DE-kerstin-low.onnx'))).toBe(true);
    // sherpa-onnx refuses the fake model with an error; the process lives on and espeak-ng speaks.
    expect(tts.voiceStatus(voice.name)).toMatchObject({
      state: 'unavailable',
      reason: expect.stringMatching(/cannot load/),
    });
    const speech = await tts.synthesise({ text: 'Guten Abend.', voice: 'de+f2', language: 'de' });
    expect(speech.format).toBe('pcm16');
    expect(fallback.asked).toHaveLength(1);
  });
});
