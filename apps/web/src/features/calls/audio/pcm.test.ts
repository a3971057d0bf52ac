import { describe, expect, it } from 'vitest';
import { Downsampler, FrameAssembler, floatToPcm16, frameSamples, pcm16ToFloat, rms } from './pcm';
import { PlaybackBuffer } from './playback-buffer';

const sine = (frequency: number, rate: number, seconds: number, amplitude = 0.5) =>
  Float32Array.from(
    { length: Math.round(rate * seconds) },
    (_, i) => amplitude * Math.sin((2 * Math.PI * frequency * i) / rate),
  );

/** Feeds `input` in 128-sample render quanta, as a worklet would. */
function inQuanta(downsampler: Downsampler, input: Float32Array): Float32Array {
  const parts: Float32Array[] = [];
  for (let i = 0; i < input.length; i += 128) parts.push(downsampler.push(input.subarray(i, i + 128)));
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

describe('Downsampler', () => {
  it.each([48000, 44100])('turns %i Hz into 16 kHz: the right count, speech kept, aliases removed', (rate) => {
    const seconds = 1;
    const voice = inQuanta(new Downsampler(rate, 16000), sine(440, rate, seconds));
    expect(Math.abs(voice.length - 16000 * seconds)).toBeLessThanOrEqual(2);
    // A 440 Hz tone passes at its level (RMS of a 0.5 sine ≈ 0.354), after the filter settles.
    expect(rms(voice.subarray(200))).toBeCloseTo(0.354, 1);
    // A 12 kHz tone is above the new Nyquist frequency (8 kHz): without the low-pass it would fold to 4 kHz.
    const high = inQuanta(new Downsampler(rate, 16000), sine(12000, rate, seconds));
    expect(rms(high.subarray(200))).toBeLessThan(0.01);
  });
});

describe('PCM16 frames', () => {
  it('writes little-endian 16-bit samples, clipped, and reads them back', () => {
    const buffer = floatToPcm16(Float32Array.from([0, 1, -1, 0.5, 2]));
    const bytes = new Uint8Array(buffer);
    expect([...bytes.subarray(0, 6)]).toEqual([0, 0, 0xff, 0x7f, 0x00, 0x80]);
    expect(new DataView(buffer).getInt16(8, true)).toBe(32767);
    const back = pcm16ToFloat(buffer);
    expect(back[3]).toBeCloseTo(0.5, 3);
  });

  it('cuts the stream into 20 ms frames of 320 samples (640 bytes)', () => {
    expect(frameSamples(16000, 20)).toBe(320);
    const frames = new FrameAssembler(320);
    expect(frames.push(new Float32Array(300))).toHaveLength(0);
    const out = frames.push(new Float32Array(700).fill(0.25));
    expect(out).toHaveLength(3);
    expect(out.every((f) => f.pcm.byteLength === 640)).toBe(true);
    expect(out[2]!.level).toBeCloseTo(0.25, 3);
  });
});

describe('PlaybackBuffer', () => {
  const second = (rate: number, value = 0.5) => floatToPcm16(new Float32Array(rate).fill(value));

  it('plays a turn at the server rate on a 48 kHz context and counts what was played', () => {
    const buffer = new PlaybackBuffer(24000, 48000);
    buffer.push('t1', second(24000));
    const out = new Float32Array(128);
    let rendered = 0;
    // 0.25 s of output at 48 kHz.
    for (let i = 0; i < 94; i++) rendered += buffer.render(out);
    expect(rendered).toBe(94 * 128);
    expect(out[5]).toBeCloseTo(0.5, 3);
    expect(buffer.playedMs('t1')).toBeGreaterThanOrEqual(249);
    expect(buffer.playedMs('t1')).toBeLessThanOrEqual(252);
    expect(buffer.currentTurn()).toBe('t1');
  });

  it('flushes at once: silence after, and the played time of the turn stays where it was cut', () => {
    const buffer = new PlaybackBuffer(16000, 16000);
    buffer.push('t1', second(16000));
    const out = new Float32Array(1600);
    buffer.render(out); // 100 ms
    expect(buffer.flush('t1')).toBe(100);
    expect(buffer.buffered).toBe(0);
    expect(buffer.render(out)).toBe(0);
    expect(out.every((s) => s === 0)).toBe(true);
    expect(buffer.playedMs('t1')).toBe(100);
    // The next turn plays from its own start.
    buffer.push('t2', second(16000, 0.25));
    buffer.render(out);
    expect(out[0]).toBeCloseTo(0.25, 3);
    expect(buffer.playedMs('t2')).toBe(100);
  });

  it('grows when more is queued than it holds', () => {
    const buffer = new PlaybackBuffer(8000, 8000, 1);
    for (let i = 0; i < 5; i++) buffer.push('t1', second(8000));
    expect(buffer.bufferedMs).toBe(5000);
    const out = new Float32Array(8000 * 5);
    expect(buffer.render(out)).toBe(40000);
    expect(out[39999]).toBeCloseTo(0.5, 3);
  });
});
