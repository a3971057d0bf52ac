import { createHash } from 'node:crypto';
import fs from 'node:fs';
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

/** The SHA-256 of `silero_vad_v5.onnx` in @ricky0123/vad-web 0.0.31 (2 327 524 bytes). */
export const SILERO_V5_SHA256 = '2623a2953f6ff3d2c1e61740c6cdb7168133479b267dfef114a4a3cc5bdd788f';

const checked = new Set<string>();

/**
 * Refuses a model file that is missing or not the expected one, once per file and process:
 * sherpa's synchronous detector does not report a missing file (it returns a dead handle)
 * and aborts the whole process on a file that is not an ONNX model.
 */
export function checkSileroModel(file: string, sha256: string | null): void {
  if (checked.has(file)) return;
  let data: Buffer;
  try {
    data = fs.readFileSync(file);
  } catch (error) {
    throw new Error(`the Silero model ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
  if (sha256 !== null) {
    const digest = createHash('sha256').update(data).digest('hex');
    if (digest !== sha256) throw new Error(`the Silero model ${file} is not the expected file (SHA-256 ${digest})`);
  } else if (data.length < 1000) throw new Error(`the Silero model ${file} is too small to be a model`);
  checked.add(file);
}

export interface SileroOptions {
  /** Probability from which sherpa's detector calls a window speech (default 0.5). */
  threshold?: number;
  /** The .onnx file; the one inside @ricky0123/vad-web (checked by its SHA-256) by default. */
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
  /** Silero keeps calling the tail of speech speech for ≈ 60–120 ms (espeak-ng sentences, docs/calls.md). */
  readonly hangoverMs = 90;
  private vad: SherpaVad | null;
  private readonly floats = new Float32Array(SILERO_FRAME_SAMPLES);

  constructor(options: SileroOptions = {}) {
    const model = options.model ?? sileroModelPath();
    checkSileroModel(model, options.model ? null : SILERO_V5_SHA256);
    const { Vad } = loadSherpaOnnx();
    this.vad = new Vad(
      {
        sileroVad: {
          model,
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
