import { createRequire } from 'node:module';
import { loadSherpaOnnx, type SherpaVad } from '../models/sherpa.js';
import type { VoiceActivityDetector } from './vad.js';

const require = createRequire(import.meta.url);

/** Silero's window at 16 kHz (v5 takes exactly 512 samples). */
export const SILERO_FRAME_SAMPLES = 512;

/**
 * The Silero VAD v5 model (MIT, snakers4/silero-vad) as shipped inside the npm package
 * `@ricky0123/vad-web` (ISC): no download, the file is part of the install.
 */
export function sileroModelPath(): string {
  return require.resolve('@ricky0123/vad-web/dist/silero_vad_v5.onnx');
}

export interface SileroOptions {
  /** Probability from which sherpa's detector calls a window speech (default 0.5). */
  threshold?: number;
  /** The .onnx file; the one inside @ricky0123/vad-web by default. */
  model?: string;
}

/**
 * Silero VAD through sherpa-onnx-node (its own onnxruntime, one thread): one 512-sample
 * window (32 ms at 16 kHz) per call, ≈ 0.1 ms of CPU each. sherpa's detector exposes its
 * decision, not the raw probability, so the answer is 0 or 1; its own smoothing is set to a
 * single window so that the turn detector's rules (minimum speech, end-of-turn silence) are
 * the only ones.
 */
export class SileroVad implements VoiceActivityDetector {
  readonly name = 'silero';
  readonly frameSamples = SILERO_FRAME_SAMPLES;
  private vad: SherpaVad | null;
  private readonly floats = new Float32Array(SILERO_FRAME_SAMPLES);

  constructor(options: SileroOptions = {}) {
    const { Vad } = loadSherpaOnnx();
    this.vad = new Vad(
      {
        sileroVad: {
          model: options.model ?? sileroModelPath(),
          threshold: options.threshold ?? 0.5,
          minSilenceDuration: 0.032,
          minSpeechDuration: 0.032,
          maxSpeechDuration: 60,
          windowSize: SILERO_FRAME_SAMPLES,
        },
        sampleRate: 16_000,
        numThreads: 1,
        provider: 'cpu',
        debug: 0,
      },
      // Seconds of audio sherpa keeps for its segments; they are dropped after each window.
      2,
    );
  }

  speechProbability(frame: Int16Array): number {
    const vad = this.vad;
    if (!vad) throw new Error('the Silero VAD is closed');
    if (frame.length !== SILERO_FRAME_SAMPLES)
      throw new RangeError(`Silero takes ${SILERO_FRAME_SAMPLES} samples per frame, not ${frame.length}`);
    for (let i = 0; i < SILERO_FRAME_SAMPLES; i++) this.floats[i] = frame[i]! / 32768;
    vad.acceptWaveform(this.floats);
    const speech = vad.isDetected();
    // Finished segments pile up in sherpa's queue: the turn detector keeps its own audio.
    while (!vad.isEmpty()) vad.pop();
    return speech ? 1 : 0;
  }

  reset(): void {
    this.vad?.reset();
  }

  close(): void {
    // The addon frees the native detector when the handle is collected.
    this.vad = null;
  }
}
