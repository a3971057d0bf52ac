import { beforeAll, describe, expect, it } from 'vitest';
import type { TurnEvent } from '../../providers/vad/vad.js';
import { concat, EnergyVad, frames, noise, RATE, silence, speech } from '../../../test/call-audio.js';
import { SileroVad, WebRtcVad } from '../../providers/vad/index.js';
import { TurnDetector } from './turn-detector.js';

/**
 * The turn detector on PCM made with espeak-ng at test time, silence and a noise burst, over
 * an energy-threshold VAD, then through Silero and WebRTC's VAD (the detectors calls use).
 */
const options = { endOfTurnMs: 600, minSpeechMs: 250 };

function run(detector: TurnDetector, samples: Int16Array): TurnEvent[] {
  return frames(samples).flatMap((frame) => detector.push(frame));
}

let hello: Int16Array;
beforeAll(async () => {
  hello = await speech('Hello there, how are you doing today?');
}, 30_000);

describe('TurnDetector', () => {
  it('finds one turn in speech between silences: speech_start after the minimum speech, speech_end after the silence', () => {
    const detector = new TurnDetector(new EnergyVad(), options);
    const audio = concat(silence(500), hello, silence(1000));
    const events = run(detector, audio);
    expect(events.map((e) => e.type)).toEqual(['speech_start', 'speech_end']);
    const [start, end] = events as [
      Extract<TurnEvent, { type: 'speech_start' }>,
      Extract<TurnEvent, { type: 'speech_end' }>,
    ];
    const speechMs = (hello.length * 1000) / RATE;
    // The speech starts at 500 ms; it is confirmed once 250 ms of it were heard.
    expect(start.atMs).toBeGreaterThanOrEqual(500 + 250 - 30);
    expect(start.atMs).toBeLessThan(500 + 600);
    // The end comes 600 ms (+ one VAD frame) after the last speech.
    const lastSpeech = 500 + speechMs;
    expect(end.atMs).toBeGreaterThanOrEqual(lastSpeech + 600 - 60);
    expect(end.atMs).toBeLessThanOrEqual(lastSpeech + 600 + 120);
    // The utterance holds the speech with its pre-roll, not the trailing silence.
    expect(end.pcm.length / RATE).toBeGreaterThan(speechMs / 1000);
    expect(end.pcm.length / RATE).toBeLessThan(speechMs / 1000 + 0.3 + 0.25);
    expect(end.speechMs).toBeGreaterThan(speechMs * 0.5);
  });

  it('a 100 ms noise burst is neither a turn nor an interruption', () => {
    const detector = new TurnDetector(new EnergyVad(), options);
    const events = run(detector, concat(silence(300), noise(100), silence(1500)));
    expect(events).toEqual([]);
  });

  it('a noise burst before speech does not stop the speech being found', () => {
    const detector = new TurnDetector(new EnergyVad(), options);
    const events = run(detector, concat(noise(100), silence(700), hello, silence(800)));
    expect(events.map((e) => e.type)).toEqual(['speech_start', 'speech_end']);
  });

  it('two utterances separated by more than the end-of-turn silence are two turns', () => {
    const detector = new TurnDetector(new EnergyVad(), options);
    const events = run(detector, concat(hello, silence(900), hello, silence(900)));
    expect(events.map((e) => e.type)).toEqual(['speech_start', 'speech_end', 'speech_start', 'speech_end']);
  });

  it('re-chunks frames of any length to the VAD frame', () => {
    const a = new TurnDetector(new EnergyVad(), options);
    const b = new TurnDetector(new EnergyVad(), options);
    const audio = concat(silence(200), hello, silence(800));
    const e1 = frames(audio, 320).flatMap((f) => a.push(f));
    const e2 = frames(audio, 777).flatMap((f) => b.push(f));
    expect(e2.map((e) => [e.type, e.atMs])).toEqual(e1.map((e) => [e.type, e.atMs]));
  });

  it('a turn longer than the maximum ends anyway', () => {
    const detector = new TurnDetector(new EnergyVad(), { ...options, maxTurnMs: 1000 });
    const events = run(detector, concat(noise(2500), silence(100)));
    expect(events[0]?.type).toBe('speech_start');
    expect(events[1]?.type).toBe('speech_end');
    expect(events[1]!.atMs).toBeLessThanOrEqual(1100);
  });

  it('push-to-talk: the button bounds the turn, the VAD is not asked', () => {
    const detector = new TurnDetector(new EnergyVad(), options);
    detector.setPushToTalk(true);
    // Speech without the button: nothing.
    expect(run(detector, concat(hello, silence(800)))).toEqual([]);
    expect(detector.talk(true).map((e) => e.type)).toEqual(['speech_start']);
    run(detector, concat(silence(200), noise(50)));
    const [end] = detector.talk(false);
    expect(end?.type).toBe('speech_end');
    const pcm = (end as Extract<TurnEvent, { type: 'speech_end' }>).pcm;
    expect(pcm.length).toBeGreaterThanOrEqual(((200 + 50) * RATE) / 1000);
  });

  it('reset forgets an utterance in progress', () => {
    const detector = new TurnDetector(new EnergyVad(), options);
    expect(run(detector, hello).map((e) => e.type)).toEqual(['speech_start']);
    detector.reset();
    expect(run(detector, silence(1500))).toEqual([]);
  });
});

/** The same fixtures through the detectors calls really use (providers/vad). */
describe.each([
  ['Silero (sherpa-onnx-node)', () => new SileroVad()],
  ['WebRTC (fvad)', () => WebRtcVad.create(3)],
])('TurnDetector over %s', (_name, make) => {
  it('finds one turn in speech between silences, ending after the end-of-turn silence (the VAD hangover counted in)', async () => {
    const detector = new TurnDetector(await make(), options);
    const events = run(detector, concat(silence(500), hello, silence(1200)));
    expect(events.map((e) => e.type)).toEqual(['speech_start', 'speech_end']);
    const end = events[1] as Extract<TurnEvent, { type: 'speech_end' }>;
    const lastSpeech = 500 + (hello.length * 1000) / RATE;
    expect(end.atMs).toBeGreaterThanOrEqual(lastSpeech + 600 - 100);
    // Without the hangover counted in, the end came 60–120 ms later than this.
    expect(end.atMs).toBeLessThanOrEqual(lastSpeech + 600 + 70);
  });

  it('a 100 ms noise burst is neither a turn nor an interruption', async () => {
    const detector = new TurnDetector(await make(), options);
    expect(run(detector, concat(silence(300), noise(100), silence(1500)))).toEqual([]);
  });

  it('two utterances apart by more than the silence are two turns', async () => {
    const detector = new TurnDetector(await make(), options);
    const events = run(detector, concat(hello, silence(1000), hello, silence(1000)));
    expect(events.map((e) => e.type)).toEqual(['speech_start', 'speech_end', 'speech_start', 'speech_end']);
  });
});
