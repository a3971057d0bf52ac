import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../../test/helpers.js';
import { resample } from '../../lib/pcm.js';
import { EspeakTtsProvider } from '../tts/espeak.js';
import { createVad } from './index.js';
import { checkSileroModel, SILERO_V5_SHA256, SileroVad } from './silero.js';
import type { VoiceActivityDetector } from './vad.js';
import { WebRtcVad } from './webrtc.js';

/**
 * Both detectors on 16 kHz PCM made at test time: espeak-ng's speech (22 050 Hz, resampled),
 * digital silence, low noise and a 100 ms burst of loud noise (a click or a cough).
 */

const RATE = 16_000;
let speech: Int16Array;

/** A seeded generator, so that the noise is the same on every run. */
function noise(samples: number, amplitude: number, seed = 7): Int16Array {
  let state = seed;
  const out = new Int16Array(samples);
  for (let i = 0; i < samples; i++) {
    state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
    out[i] = Math.round(((state / 0x7fffffff) * 2 - 1) * amplitude);
  }
  return out;
}

function concat(...parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** The detector's answer for each whole frame of the audio. */
function frames(vad: VoiceActivityDetector, pcm: Int16Array): number[] {
  const answers: number[] = [];
  for (let offset = 0; offset + vad.frameSamples <= pcm.length; offset += vad.frameSamples)
    answers.push(vad.speechProbability(pcm.subarray(offset, offset + vad.frameSamples)));
  return answers;
}

/** The longest stretch of consecutive speech frames, in ms. */
function longestRunMs(answers: number[], frameSamples: number): number {
  let longest = 0;
  let run = 0;
  for (const p of answers) {
    run = p >= 0.5 ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return (longest * frameSamples * 1000) / RATE;
}

/** Whether each frame holds sound at all (RMS above −40 dBFS): where speech can be. */
function loudFrames(pcm: Int16Array, size: number): boolean[] {
  const out: boolean[] = [];
  for (let offset = 0; offset + size <= pcm.length; offset += size) {
    let sum = 0;
    for (let i = offset; i < offset + size; i++) sum += pcm[i]! ** 2;
    out.push(Math.sqrt(sum / size) > 328);
  }
  return out;
}

beforeAll(async () => {
  const espeak = new EspeakTtsProvider();
  const said = await espeak.synthesise({
    text: 'I have been waiting for you all evening. Tell me everything about your day, please.',
    voice: 'en-us+f3',
    language: 'en',
  });
  if (said.format !== 'pcm16') throw new Error('espeak-ng answers PCM');
  speech = resample(said.samples, said.sampleRate, RATE);
}, 30_000);

const detectors: VoiceActivityDetector[] = [];
afterAll(() => detectors.forEach((d) => d.close()));

const implementations: [string, () => Promise<VoiceActivityDetector>][] = [
  ['silero (sherpa-onnx-node)', async () => new SileroVad()],
  ['webrtc (fvad)', () => WebRtcVad.create(3)],
];

describe.each(implementations)('%s', (_name, make) => {
  async function detector() {
    const vad = await make();
    detectors.push(vad);
    return vad;
  }

  it('marks the frames of speech as speech', async () => {
    const vad = await detector();
    const answers = frames(vad, concat(new Int16Array(RATE / 2), speech, new Int16Array(RATE / 2)));
    const loud = loudFrames(concat(new Int16Array(RATE / 2), speech, new Int16Array(RATE / 2)), vad.frameSamples);
    const spoken = answers.filter((p, i) => loud[i] && p >= 0.5).length;
    const loudCount = loud.filter(Boolean).length;
    expect(loudCount).toBeGreaterThan(40);
    expect(spoken / loudCount).toBeGreaterThan(0.7);
    // The half second of digital silence before the speech is not speech.
    const leading = Math.floor(RATE / 2 / vad.frameSamples);
    expect(answers.slice(0, leading).every((p) => p < 0.5)).toBe(true);
  });

  it('hears no speech in digital silence nor in low noise', async () => {
    const vad = await detector();
    expect(frames(vad, new Int16Array(RATE * 2)).filter((p) => p >= 0.5)).toHaveLength(0);
    vad.reset();
    // ≈ −50 dBFS of white noise: a quiet room through a microphone. fvad calls a few
    // scattered frames speech while it adapts; none adds up to an utterance.
    const answers = frames(vad, noise(RATE * 2, 100));
    expect(answers.filter((p) => p >= 0.5).length / answers.length).toBeLessThan(0.05);
    expect(longestRunMs(answers, vad.frameSamples)).toBeLessThan(100);
  });

  it('gives a 100 ms burst of loud noise (a click, a cough) far less than the 250 ms minimum speech', async () => {
    const vad = await detector();
    const burst = concat(new Int16Array(RATE / 2), noise(RATE / 10, 12_000, 3), new Int16Array(RATE));
    const answers = frames(vad, burst);
    const speechMs = (answers.filter((p) => p >= 0.5).length * vad.frameSamples * 1000) / RATE;
    expect(speechMs).toBeLessThan(250);
    expect(longestRunMs(answers, vad.frameSamples)).toBeLessThan(250);
  });

  it('starts afresh after reset and refuses frames of the wrong size', async () => {
    const vad = await detector();
    frames(vad, speech.subarray(0, RATE));
    vad.reset();
    expect(frames(vad, new Int16Array(RATE)).filter((p) => p >= 0.5)).toHaveLength(0);
    expect(() => vad.speechProbability(new Int16Array(100))).toThrow(RangeError);
  });
});

describe('createVad', () => {
  it('falls back to WebRTC when Silero cannot start, and says so once', async () => {
    const warnings: string[] = [];
    const log = { warn: (m: string) => warnings.push(m) };
    // A model file that is not there: refused before sherpa sees it (it would hand back a dead detector).
    const broken = () => new SileroVad({ model: path.join(os.tmpdir(), 'no-such-silero.onnx') });
    const first = await createVad(testConfig(), log, broken);
    const second = await createVad(testConfig(), log, broken);
    detectors.push(first, second);
    expect([first.name, second.name]).toEqual(['webrtc', 'webrtc']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/Silero VAD .* cannot start: the Silero model .*no-such-silero\.onnx cannot be read/);
  });

  it('refuses a Silero model that is not the shipped file instead of letting sherpa abort the process', () => {
    const fake = path.join(os.tmpdir(), `fake-silero-${process.pid}.onnx`);
    fs.writeFileSync(fake, Buffer.alloc(50, 1));
    try {
      expect(() => new SileroVad({ model: fake })).toThrow(/too small to be a model/);
      expect(() => checkSileroModel(fake, SILERO_V5_SHA256)).toThrow(/not the expected file/);
    } finally {
      fs.rmSync(fake);
    }
  });

  it('gives Silero by default and WebRTC on request', async () => {
    const silero = await createVad(testConfig());
    const webrtc = await createVad(testConfig({ CALL_VAD: 'webrtc', CALL_VAD_WEBRTC_MODE: '2' }));
    detectors.push(silero, webrtc);
    expect([silero.name, silero.frameSamples]).toEqual(['silero', 512]);
    expect([webrtc.name, webrtc.frameSamples]).toEqual(['webrtc', 480]);
  });
});
