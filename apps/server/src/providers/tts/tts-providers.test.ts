import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeMp3, readMp3Info } from '../../modules/audio/mp3.js';
import { testConfig } from '../../../test/helpers.js';
import { ElevenLabsTtsProvider } from './elevenlabs.js';
import { EspeakTtsProvider, espeakVoiceFor, splitForSpeech } from './espeak.js';
import { createTtsProvider } from './index.js';
import { OpenAiSpeechProvider } from './openai-speech.js';
import { isEspeakVoice, TtsError } from './tts-provider.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A fake speech service on a free port of the loopback; `handle` answers each request. */
async function fakeServer(handle: (req: Seen, res: http.ServerResponse) => void) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = {
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      seen.push(entry);
      handle(entry, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}
const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((s) => {
      s.closeAllConnections();
      return new Promise((resolve) => s.close(resolve));
    }),
  );
});

/** Half a second of a tone as MP3, what a remote provider would answer. */
async function toneMp3(): Promise<Buffer> {
  const samples = new Int16Array(11_025).map((_, i) => Math.round(6000 * Math.sin((2 * Math.PI * 330 * i) / 22_050)));
  return encodeMp3(samples, 22_050, 32);
}

const mp3Answer = (data: Buffer) => (_req: Seen, res: http.ServerResponse) => {
  res.writeHead(200, { 'content-type': 'audio/mpeg' });
  res.end(data);
};

describe('voices', () => {
  it("maps a character's espeak-ng variant onto the message's language", () => {
    expect(espeakVoiceFor('en-us+f3', 'ru')).toBe('ru+f3');
    expect(espeakVoiceFor('en-us+f3', 'ch')).toBe('cmn+f3');
    expect(espeakVoiceFor('en-us+m1', 'de')).toBe('de+m1');
    expect(espeakVoiceFor('en-gb+m1', 'en')).toBe('en-gb+m1');
    expect(espeakVoiceFor('de', 'es')).toBe('es');
    expect(espeakVoiceFor('ru+f2', 'en')).toBe('en-us+f2');
    expect(espeakVoiceFor('en-us+../../x', 'en')).toBe('en-us');
  });

  it('tells espeak-ng voices from providers’ voice names', () => {
    for (const voice of ['en-us+f3', 'de', 'cmn', 'ru+m1', 'en-gb']) expect(isEspeakVoice(voice), voice).toBe(true);
    for (const voice of ['alloy', 'nova', 'ash', '21m00Tcm4TlvDq8ikWAM'])
      expect(isEspeakVoice(voice), voice).toBe(false);
  });

  it('splits long texts at sentence ends', () => {
    const text = 'One sentence here. Another one! A third? '.repeat(20);
    const pieces = splitForSpeech(text, 100);
    expect(pieces.every((p) => p.length <= 100)).toBe(true);
    expect(pieces.join(' ').replace(/\s+/g, ' ')).toBe(text.trim().replace(/\s+/g, ' '));
    expect(splitForSpeech('你好。我很好！')).toEqual(['你好。我很好！']);
  });
});

describe('espeak-ng (WebAssembly)', () => {
  it('speaks 22 050 Hz PCM and stops when aborted', async () => {
    const espeak = new EspeakTtsProvider();
    const speech = await espeak.synthesise({ text: 'Hallo, wie geht es dir?', voice: 'en-us+f3', language: 'de' });
    expect(speech.format).toBe('pcm16');
    if (speech.format !== 'pcm16') return;
    expect(speech.sampleRate).toBe(22_050);
    expect(speech.samples.length / speech.sampleRate).toBeGreaterThan(0.5);
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(
      espeak.synthesise({ text: 'Hello', voice: 'en-us', language: 'en', signal: controller.signal }),
    ).rejects.toMatchObject({ name: 'TtsError', code: 'aborted', provider: 'espeak' });
  });
});

describe('OpenAI-compatible /audio/speech', () => {
  it('asks for MP3 with the model, the voice and the text', async () => {
    const mp3 = await toneMp3();
    const fake = await fakeServer(mp3Answer(mp3));
    const provider = new OpenAiSpeechProvider({
      baseUrl: `${fake.url}/v1/`,
      apiKey: 'sk-test',
      model: 'tts-1',
      voice: 'alloy',
    });
    const speech = await provider.synthesise({ text: 'Hi there', voice: 'nova', language: 'en' });
    expect(speech).toEqual({ format: 'mp3', data: mp3 });
    expect(fake.seen[0]).toMatchObject({ method: 'POST', url: '/v1/audio/speech' });
    expect(fake.seen[0]!.headers.authorization).toBe('Bearer sk-test');
    expect(JSON.parse(fake.seen[0]!.body)).toEqual({
      model: 'tts-1',
      input: 'Hi there',
      voice: 'nova',
      response_format: 'mp3',
    });
    // A character with an espeak-ng voice speaks with the configured voice.
    await provider.synthesise({ text: 'Hola', voice: 'en-us+f3', language: 'es' });
    expect(JSON.parse(fake.seen[1]!.body).voice).toBe('alloy');
  });

  it('turns an error answer into a TtsError with the status', async () => {
    const fake = await fakeServer((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"Incorrect API key"}}');
    });
    const provider = new OpenAiSpeechProvider({ baseUrl: fake.url, model: 'tts-1', voice: 'alloy' });
    const failure = await provider.synthesise({ text: 'Hi', voice: 'alloy', language: 'en' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TtsError);
    expect(failure).toMatchObject({ code: 'provider_error', provider: 'openai' });
    expect((failure as Error).message).toContain('401');
  });

  it('gives up with a timeout error when the endpoint hangs', async () => {
    const fake = await fakeServer(() => undefined);
    const provider = new OpenAiSpeechProvider({ baseUrl: fake.url, model: 'tts-1', voice: 'alloy' });
    await expect(
      provider.synthesise({ text: 'Hi', voice: 'alloy', language: 'en', signal: AbortSignal.timeout(200) }),
    ).rejects.toMatchObject({ code: 'timeout' });
  });

  it('is a network failure, not a crash, when nothing listens', async () => {
    const provider = new OpenAiSpeechProvider({ baseUrl: 'http://127.0.0.1:9', model: 'tts-1', voice: 'alloy' });
    await expect(provider.synthesise({ text: 'Hi', voice: 'alloy', language: 'en' })).rejects.toMatchObject({
      code: 'provider_error',
    });
  });
});

describe('ElevenLabs', () => {
  it('posts the text to /v1/text-to-speech/{voice_id} with xi-api-key', async () => {
    const mp3 = await toneMp3();
    const fake = await fakeServer(mp3Answer(mp3));
    const provider = new ElevenLabsTtsProvider({
      baseUrl: fake.url,
      apiKey: 'xi-test',
      model: 'eleven_multilingual_v2',
      voice: 'defaultVoiceId',
    });
    const speech = await provider.synthesise({ text: 'Привет!', voice: 'en-us+f3', language: 'ru' });
    expect(speech).toEqual({ format: 'mp3', data: mp3 });
    expect(fake.seen[0]!.url).toBe('/v1/text-to-speech/defaultVoiceId?output_format=mp3_22050_32');
    expect(fake.seen[0]!.headers['xi-api-key']).toBe('xi-test');
    expect(JSON.parse(fake.seen[0]!.body)).toEqual({ text: 'Привет!', model_id: 'eleven_multilingual_v2' });
    await provider.synthesise({ text: 'Hi', voice: 'CharacterVoice01', language: 'en' });
    expect(fake.seen[1]!.url).toMatch(/^\/v1\/text-to-speech\/CharacterVoice01\?/);
  });

  it('reports an empty answer as empty_output', async () => {
    const fake = await fakeServer(mp3Answer(Buffer.alloc(0)));
    const provider = new ElevenLabsTtsProvider({ baseUrl: fake.url, apiKey: 'k', model: 'm', voice: 'v' });
    await expect(provider.synthesise({ text: 'Hi', voice: 'v', language: 'en' })).rejects.toMatchObject({
      code: 'empty_output',
      provider: 'elevenlabs',
    });
  });
});

describe('settings', () => {
  it('choose the provider; ElevenLabs needs a key and a voice', () => {
    expect(createTtsProvider(testConfig()).name).toBe('espeak');
    expect(createTtsProvider(testConfig({ TTS_PROVIDER: 'openai' })).name).toBe('openai');
    expect(() => createTtsProvider(testConfig({ TTS_PROVIDER: 'elevenlabs' }))).toThrow(/TTS_API_KEY, TTS_VOICE/);
    expect(createTtsProvider(testConfig({ TTS_PROVIDER: 'elevenlabs', TTS_API_KEY: 'k', TTS_VOICE: 'v' })).name).toBe(
      'elevenlabs',
    );
    expect(() => testConfig({ TTS_MP3_KBPS: '33' })).toThrow(/TTS_MP3_KBPS/);
  });
});

describe('MP3 frames', () => {
  it('counts the frames and the duration of an encoded file, and refuses what is not MP3', async () => {
    const info = readMp3Info(await toneMp3())!;
    expect(info.sampleRate).toBe(22_050);
    expect(info.durationS).toBeGreaterThan(0.5);
    expect(info.durationS).toBeLessThan(0.7);
    expect(readMp3Info(Buffer.from('RIFF....WAVEfmt '))).toBeNull();
    expect(readMp3Info(Buffer.alloc(2000))).toBeNull();
  });
});
