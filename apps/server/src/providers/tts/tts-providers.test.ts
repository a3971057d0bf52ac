import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeHttpServers, type FakeRequest } from '../../../test/fake-http.js';
import { encodeMp3, readMp3Info } from './mp3.js';
import { testConfig } from '../../../test/helpers.js';
import { ElevenLabsTtsProvider } from './elevenlabs.js';
import { EspeakTtsProvider, espeakVoiceFor, splitForSpeech } from './espeak.js';
import { createTtsProvider } from './index.js';
import { OpenAiSpeechProvider } from './openai-speech.js';
import { isEspeakVoice, remoteVoiceFor, TtsError, voiceGender } from './tts-provider.js';

const fakes = new FakeHttpServers();
afterEach(() => fakes.closeAll());

/** Half a second of a tone as MP3, what a remote provider would answer. */
async function toneMp3(): Promise<Buffer> {
  const samples = new Int16Array(11_025).map((_, i) => Math.round(6000 * Math.sin((2 * Math.PI * 330 * i) / 22_050)));
  return encodeMp3(samples, 22_050, 32);
}

const mp3Answer = (data: Buffer) => (_req: FakeRequest, res: http.ServerResponse) => {
  res.writeHead(200, { 'content-type': 'audio/mpeg' });
  res.end(data);
};

describe('voices', () => {
  it("maps a character's espeak-ng variant onto the message's language", () => {
    expect(espeakVoiceFor('en-us+f3', 'ru')).toBe('ru+f3');
    expect(espeakVoiceFor('en-us+f3', 'ch')).toBe('cmn+f3');
    expect(espeakVoiceFor('en-us+m1', 'de')).toBe('de+m1');
    // British English is `en` in espeak-ng's data (`en-gb` does not load: it fell back to the
    // American male voice, so British women spoke as men).
    expect(espeakVoiceFor('en-gb+m1', 'en')).toBe('en+m1');
    expect(espeakVoiceFor('en-gb+f4', 'en')).toBe('en+f4');
    expect(espeakVoiceFor('en-gb+f4', 'ru')).toBe('ru+f4');
    expect(espeakVoiceFor('en-gb-scotland+f2', 'en')).toBe('en-gb-scotland+f2');
    expect(espeakVoiceFor('de', 'es')).toBe('es');
    expect(espeakVoiceFor('ru+f2', 'en')).toBe('en-us+f2');
    expect(espeakVoiceFor('en-us+../../x', 'en')).toBe('en-us');
  });

  it('tells espeak-ng voices from providers’ voice names', () => {
    for (const voice of ['en-us+f3', 'de', 'cmn', 'ru+m1', 'en-gb']) expect(isEspeakVoice(voice), voice).toBe(true);
    for (const voice of ['alloy', 'nova', 'ash', '21m00Tcm4TlvDq8ikWAM'])
      expect(isEspeakVoice(voice), voice).toBe(false);
  });

  it("gives remote providers a voice of the character's sex", () => {
    expect(voiceGender('en-us+f3')).toBe('female');
    expect(voiceGender('en-gb+m1')).toBe('male');
    expect(voiceGender('de+Annie')).toBe('female');
    expect(voiceGender('en-us')).toBeNull();
    expect(voiceGender('nova')).toBeNull();
    const voices = { voice: 'alloy', female: 'nova', male: 'onyx' };
    expect(remoteVoiceFor('en-us+f3', voices)).toBe('nova');
    expect(remoteVoiceFor('fr+m3', voices)).toBe('onyx');
    expect(remoteVoiceFor('de', voices)).toBe('alloy');
    expect(remoteVoiceFor('shimmer', voices)).toBe('shimmer');
  });

  it('splits long texts at sentence ends', () => {
    const text = 'One sentence here. Another one! A third? '.repeat(20);
    const pieces = splitForSpeech(text, 100);
    expect(pieces.every((p) => p.length <= 100)).toBe(true);
    expect(pieces.join(' ').replace(/\s+/g, ' ')).toBe(text.trim().replace(/\s+/g, ' '));
    expect(splitForSpeech('你好。我很好！')).toEqual(['你好。我很好！']);
  });
});

/** The median pitch (Hz) of voiced 40 ms frames, by autocorrelation between 70 and 500 Hz. */
function medianPitch(samples: Int16Array, rate: number): number {
  const frame = Math.round(rate * 0.04);
  const pitches: number[] = [];
  for (let offset = 0; offset + frame * 2 < samples.length; offset += frame) {
    let energy = 0;
    for (let i = 0; i < frame; i += 1) energy += samples[offset + i]! ** 2;
    if (energy / frame < 1e5) continue;
    let best = 0;
    let bestLag = 0;
    for (let lag = Math.floor(rate / 500); lag < Math.floor(rate / 70); lag += 1) {
      let sum = 0;
      for (let i = 0; i < frame; i += 1) sum += samples[offset + i]! * samples[offset + i + lag]!;
      if (sum > best) [best, bestLag] = [sum, lag];
    }
    if (bestLag) pitches.push(rate / bestLag);
  }
  pitches.sort((a, b) => a - b);
  return pitches[Math.floor(pitches.length / 2)] ?? 0;
}

describe('espeak-ng (WebAssembly)', () => {
  it("speaks a woman's voice for female variants and a man's for male ones, British English too", async () => {
    const espeak = new EspeakTtsProvider();
    const pitch = async (voice: string, language: 'en' | 'ru') => {
      const speech = await espeak.synthesise({
        text: language === 'en' ? 'I have been waiting for you all evening.' : 'Я ждала тебя весь вечер.',
        voice,
        language,
      });
      if (speech.format !== 'pcm16') throw new Error('pcm expected');
      return medianPitch(speech.samples, speech.sampleRate);
    };
    for (const voice of ['en-us+f3', 'en-gb+f4', 'en-gb+f2', 'ru+f2'])
      expect(await pitch(voice, 'en'), voice).toBeGreaterThan(150);
    expect(await pitch('en-gb+f4', 'ru')).toBeGreaterThan(150);
    for (const voice of ['en-us+m3', 'en-gb+m1']) expect(await pitch(voice, 'en'), voice).toBeLessThan(140);
  });

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
    const fake = await fakes.start(mp3Answer(mp3));
    const provider = new OpenAiSpeechProvider({
      baseUrl: `${fake.url}/v1/`,
      apiKey: 'sk-test',
      model: 'tts-1',
      voices: { voice: 'alloy', female: 'shimmer', male: 'onyx' },
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
    // A character with an espeak-ng voice speaks with the configured voice of its sex.
    await provider.synthesise({ text: 'Hola', voice: 'en-us+f3', language: 'es' });
    expect(JSON.parse(fake.seen[1]!.body).voice).toBe('shimmer');
    await provider.synthesise({ text: 'Hola', voice: 'es+m2', language: 'es' });
    expect(JSON.parse(fake.seen[2]!.body).voice).toBe('onyx');
    await provider.synthesise({ text: 'Hola', voice: 'es', language: 'es' });
    expect(JSON.parse(fake.seen[3]!.body).voice).toBe('alloy');
  });

  it('turns an error answer into a TtsError with the status', async () => {
    const fake = await fakes.start((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"Incorrect API key"}}');
    });
    const provider = new OpenAiSpeechProvider({
      baseUrl: fake.url,
      model: 'tts-1',
      voices: { voice: 'alloy', female: 'nova', male: 'onyx' },
    });
    const failure = await provider.synthesise({ text: 'Hi', voice: 'alloy', language: 'en' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TtsError);
    expect(failure).toMatchObject({ code: 'provider_error', provider: 'openai' });
    expect((failure as Error).message).toContain('401');
  });

  it('gives up with a timeout error when the endpoint hangs', async () => {
    const fake = await fakes.start(() => undefined);
    const provider = new OpenAiSpeechProvider({
      baseUrl: fake.url,
      model: 'tts-1',
      voices: { voice: 'alloy', female: 'nova', male: 'onyx' },
    });
    await expect(
      provider.synthesise({ text: 'Hi', voice: 'alloy', language: 'en', signal: AbortSignal.timeout(200) }),
    ).rejects.toMatchObject({ code: 'timeout' });
  });

  it('is a network failure, not a crash, when nothing listens', async () => {
    const provider = new OpenAiSpeechProvider({
      baseUrl: 'http://127.0.0.1:9',
      model: 'tts-1',
      voices: { voice: 'alloy', female: 'nova', male: 'onyx' },
    });
    await expect(provider.synthesise({ text: 'Hi', voice: 'alloy', language: 'en' })).rejects.toMatchObject({
      code: 'provider_error',
    });
  });
});

describe('ElevenLabs', () => {
  it('posts the text to /v1/text-to-speech/{voice_id} with xi-api-key', async () => {
    const mp3 = await toneMp3();
    const fake = await fakes.start(mp3Answer(mp3));
    const provider = new ElevenLabsTtsProvider({
      baseUrl: fake.url,
      apiKey: 'xi-test',
      model: 'eleven_multilingual_v2',
      voices: { voice: 'defaultVoiceId', female: 'defaultVoiceId', male: 'maleVoiceId' },
    });
    const speech = await provider.synthesise({ text: 'Привет!', voice: 'en-us+f3', language: 'ru' });
    expect(speech).toEqual({ format: 'mp3', data: mp3 });
    expect(fake.seen[0]!.url).toBe('/v1/text-to-speech/defaultVoiceId?output_format=mp3_22050_32');
    expect(fake.seen[0]!.headers['xi-api-key']).toBe('xi-test');
    expect(JSON.parse(fake.seen[0]!.body)).toEqual({ text: 'Привет!', model_id: 'eleven_multilingual_v2' });
    await provider.synthesise({ text: 'Hi', voice: 'CharacterVoice01', language: 'en' });
    expect(fake.seen[1]!.url).toMatch(/^\/v1\/text-to-speech\/CharacterVoice01\?/);
    await provider.synthesise({ text: 'Hi', voice: 'en-us+m3', language: 'en' });
    expect(fake.seen[2]!.url).toMatch(/^\/v1\/text-to-speech\/maleVoiceId\?/);
  });

  it('reports an empty answer as empty_output', async () => {
    const fake = await fakes.start(mp3Answer(Buffer.alloc(0)));
    const provider = new ElevenLabsTtsProvider({
      baseUrl: fake.url,
      apiKey: 'k',
      model: 'm',
      voices: { voice: 'v', female: 'v', male: 'v' },
    });
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

  it('give OpenAI nova and onyx by sex unless the operator names voices', async () => {
    const fake = await fakes.start(mp3Answer(await toneMp3()));
    const voiceOf = async (env: Record<string, string>, voice: string) => {
      const provider = createTtsProvider(testConfig({ TTS_PROVIDER: 'openai', TTS_BASE_URL: fake.url, ...env }));
      await provider.synthesise({ text: 'Hi', voice, language: 'en' });
      return JSON.parse(fake.seen.at(-1)!.body).voice as string;
    };
    expect(await voiceOf({}, 'en-us+f3')).toBe('nova');
    expect(await voiceOf({}, 'en-us+m3')).toBe('onyx');
    expect(await voiceOf({}, 'en-us')).toBe('alloy');
    expect(await voiceOf({ TTS_VOICE: 'af_bella' }, 'en-us+m3')).toBe('af_bella');
    expect(await voiceOf({ TTS_VOICE: 'af_bella', TTS_VOICE_MALE: 'am_adam' }, 'en-us+m3')).toBe('am_adam');
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

describe('raw PCM for calls (format: pcm16)', () => {
  /** Half a second of a 24 kHz tone as little-endian 16-bit bytes, with an odd trailing byte. */
  const pcmBytes = () => {
    const samples = new Int16Array(12_000).map((_, i) => Math.round(5000 * Math.sin(i / 7)));
    return { samples, bytes: Buffer.concat([Buffer.from(samples.buffer), Buffer.from([0x12])]) };
  };
  const pcmAnswer = (data: Buffer) => (_req: FakeRequest, res: http.ServerResponse) => {
    res.writeHead(200, { 'content-type': 'audio/pcm' });
    res.end(data);
  };

  it('asks the OpenAI-compatible endpoint for `pcm` and answers 24 kHz samples', async () => {
    const { samples, bytes } = pcmBytes();
    const fake = await fakes.start(pcmAnswer(bytes));
    const provider = new OpenAiSpeechProvider({
      baseUrl: fake.url,
      model: 'tts-1',
      voices: { voice: 'alloy', female: 'nova', male: 'onyx' },
    });
    const speech = await provider.synthesise({ text: 'Hi', voice: 'alloy', language: 'en', format: 'pcm16' });
    expect(JSON.parse(fake.seen[0]!.body).response_format).toBe('pcm');
    expect(speech).toEqual({ format: 'pcm16', sampleRate: 24_000, samples });
    // Without the preference it is MP3 as before.
    await provider.synthesise({ text: 'Hi', voice: 'alloy', language: 'en' }).catch(() => undefined);
    expect(JSON.parse(fake.seen[1]!.body).response_format).toBe('mp3');
  });

  it('asks ElevenLabs for pcm_24000', async () => {
    const { samples, bytes } = pcmBytes();
    const fake = await fakes.start(pcmAnswer(bytes));
    const provider = new ElevenLabsTtsProvider({
      baseUrl: fake.url,
      apiKey: 'k',
      model: 'm',
      voices: { voice: 'v', female: 'v', male: 'v' },
    });
    const speech = await provider.synthesise({ text: 'Hi', voice: 'v', language: 'en', format: 'pcm16' });
    expect(fake.seen[0]!.url).toBe('/v1/text-to-speech/v?output_format=pcm_24000');
    expect(speech).toEqual({ format: 'pcm16', sampleRate: 24_000, samples });
  });

  it('reports an empty PCM answer as empty_output', async () => {
    const fake = await fakes.start(pcmAnswer(Buffer.from([1])));
    const provider = new OpenAiSpeechProvider({
      baseUrl: fake.url,
      model: 'tts-1',
      voices: { voice: 'alloy', female: 'nova', male: 'onyx' },
    });
    await expect(
      provider.synthesise({ text: 'Hi', voice: 'alloy', language: 'en', format: 'pcm16' }),
    ).rejects.toMatchObject({ code: 'empty_output' });
  });
});
