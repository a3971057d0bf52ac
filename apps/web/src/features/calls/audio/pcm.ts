/**
 * Pure sample arithmetic shared by the worklets (bundled into them) and the tests: the
 * microphone's downsampling to the call's input rate, 20 ms PCM16 frames, decoding the
 * server's PCM16 and the level meter. No Web Audio here, so jsdom can test it.
 */

/** Taps of the anti-aliasing low-pass filter (odd: a symmetric filter with a whole-sample delay). */
const FILTER_TAPS = 47;

/** A windowed-sinc low-pass (Blackman window), cut-off as a fraction of the sample rate, gain 1 at DC. */
export function lowPassTaps(cutoff: number, taps = FILTER_TAPS): Float32Array {
  const h = new Float32Array(taps);
  const middle = (taps - 1) / 2;
  let sum = 0;
  for (let k = 0; k < taps; k++) {
    const x = k - middle;
    const sinc = x === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * x) / (Math.PI * x);
    const window =
      0.42 - 0.5 * Math.cos((2 * Math.PI * k) / (taps - 1)) + 0.08 * Math.cos((4 * Math.PI * k) / (taps - 1));
    h[k] = sinc * window;
    sum += h[k]!;
  }
  for (let k = 0; k < taps; k++) h[k] = h[k]! / sum;
  return h;
}

/**
 * Streaming downsampler from the audio context's rate (44.1 or 48 kHz, any rate above the
 * target) to `outRate`: a low-pass below the new Nyquist frequency (0.45 × outRate, so no
 * aliasing folds speech back), then reads at fractional positions with linear interpolation.
 * State carries over between `push` calls, so 128-sample render quanta join seamlessly.
 */
export class Downsampler {
  private readonly taps: Float32Array | null;
  private readonly history: Float32Array;
  private historyIndex = 0;
  private readonly step: number;
  /** Absolute index (in filtered input samples) of the next output sample. */
  private next = 0;
  /** Absolute index of the next input sample. */
  private index = 0;
  private previous = 0;

  constructor(
    readonly inRate: number,
    readonly outRate: number,
  ) {
    if (!(inRate > 0) || !(outRate > 0)) throw new RangeError('Sample rates must be positive');
    this.step = inRate / outRate;
    this.taps = inRate > outRate ? lowPassTaps((0.45 * outRate) / inRate) : null;
    this.history = new Float32Array(this.taps?.length ?? 1);
  }

  push(input: Float32Array): Float32Array {
    const out = new Float32Array(Math.ceil(input.length / this.step) + 2);
    let count = 0;
    const taps = this.taps;
    const history = this.history;
    const size = history.length;
    for (let n = 0; n < input.length; n++) {
      let y = input[n]!;
      if (taps) {
        history[this.historyIndex] = y;
        y = 0;
        // history[historyIndex] is the newest sample; walk back through the circular buffer.
        let at = this.historyIndex;
        for (let k = 0; k < size; k++) {
          y += taps[k]! * history[at]!;
          at = at === 0 ? size - 1 : at - 1;
        }
        this.historyIndex = (this.historyIndex + 1) % size;
      }
      const i = this.index;
      while (this.next <= i) {
        const frac = this.next - (i - 1);
        out[count++] = this.previous + (y - this.previous) * frac;
        this.next += this.step;
      }
      this.previous = y;
      this.index++;
    }
    return out.subarray(0, count);
  }
}

/** Float samples (−1…1) to 16-bit little-endian PCM, clipped. */
export function floatToPcm16(samples: Float32Array): ArrayBuffer {
  const buffer = new ArrayBuffer(samples.length * 2);
  const view = new DataView(buffer);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i]!));
    view.setInt16(i * 2, s < 0 ? Math.round(s * 0x8000) : Math.round(s * 0x7fff), true);
  }
  return buffer;
}

/** 16-bit little-endian PCM to float samples (an odd trailing byte is ignored). */
export function pcm16ToFloat(buffer: ArrayBuffer): Float32Array {
  const view = new DataView(buffer);
  const out = new Float32Array(buffer.byteLength >> 1);
  for (let i = 0; i < out.length; i++) out[i] = view.getInt16(i * 2, true) / 0x8000;
  return out;
}

/** Root mean square of the samples (0 for none). */
export function rms(samples: Float32Array): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i]! * samples[i]!;
  return Math.sqrt(sum / samples.length);
}

/** Collects samples into frames of exactly `frameSize` samples, as PCM16 buffers. */
export class FrameAssembler {
  private readonly pending: Float32Array;
  private filled = 0;

  constructor(readonly frameSize: number) {
    this.pending = new Float32Array(frameSize);
  }

  push(samples: Float32Array): { pcm: ArrayBuffer; level: number }[] {
    const frames: { pcm: ArrayBuffer; level: number }[] = [];
    let offset = 0;
    while (offset < samples.length) {
      const take = Math.min(this.frameSize - this.filled, samples.length - offset);
      this.pending.set(samples.subarray(offset, offset + take), this.filled);
      this.filled += take;
      offset += take;
      if (this.filled === this.frameSize) {
        frames.push({ pcm: floatToPcm16(this.pending), level: rms(this.pending) });
        this.filled = 0;
      }
    }
    return frames;
  }
}

/** Samples per frame: 16 kHz × 20 ms = 320. */
export const frameSamples = (rate: number, frameMs: number) => Math.round((rate * frameMs) / 1000);
