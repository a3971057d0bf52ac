import { createRequire } from 'node:module';

/**
 * The parts of sherpa-onnx-node (native, its own onnxruntime inside) the speech providers
 * use. It is required on first use only, so a platform without its prebuilt binary fails
 * with an error the caller reports, and servers that never use local speech never load it.
 * Model loading and decoding use its asynchronous calls, which run on libuv's thread pool:
 * the event loop stays free.
 */
export interface SherpaOfflineStream {
  acceptWaveform(wave: { samples: Float32Array; sampleRate: number }): void;
}
export interface SherpaOfflineRecognizer {
  createStream(): SherpaOfflineStream;
  decodeAsync(stream: SherpaOfflineStream): Promise<{ text?: string; lang?: string }>;
}
export interface SherpaOfflineTts {
  readonly numSpeakers: number;
  readonly sampleRate: number;
  generateAsync(request: {
    text: string;
    sid: number;
    speed: number;
    onProgress?: (info: unknown) => number | boolean;
  }): Promise<{ samples: Float32Array; sampleRate: number }>;
}
export interface SherpaVad {
  acceptWaveform(samples: Float32Array): void;
  isDetected(): boolean;
  isEmpty(): boolean;
  pop(): void;
  reset(): void;
}
export interface SherpaModule {
  Vad: new (config: object, bufferSizeInSeconds: number) => SherpaVad;
  OfflineRecognizer: { createAsync(config: object): Promise<SherpaOfflineRecognizer> };
  OfflineTts: { createAsync(config: object): Promise<SherpaOfflineTts> };
}

const require = createRequire(import.meta.url);
let sherpa: SherpaModule | undefined;

/** Loads the addon once; throws (a JS error) when the platform has no prebuilt binary. */
export function loadSherpaOnnx(): SherpaModule {
  sherpa ??= require('sherpa-onnx-node') as SherpaModule;
  return sherpa;
}

/** Float samples in [-1, 1] as 16-bit PCM. */
export function floatToPcm16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const v = Math.max(-1, Math.min(1, samples[i]!));
    out[i] = Math.round(v * 32767);
  }
  return out;
}

/** 16-bit PCM as float samples in [-1, 1). */
export function pcm16ToFloat(samples: Int16Array): Float32Array {
  const out = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = samples[i]! / 32768;
  return out;
}

/** Runs tasks one at a time (one native model serves one request at once). */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const next = this.tail.then(task, task);
    this.tail = next.catch(() => undefined);
    return next;
  }
}
