import type { VoiceActivityDetector } from './vad.js';

/** 30 ms at 16 kHz: fvad accepts 10, 20 or 30 ms frames. */
export const WEBRTC_FRAME_SAMPLES = 480;

/** The Emscripten module of @echogarden/fvad-wasm (libfvad, BSD-3-Clause). */
interface FvadModule {
  HEAP16: Int16Array;
  _fvad_new(): number;
  _fvad_free(handle: number): void;
  _fvad_reset(handle: number): void;
  _fvad_set_mode(handle: number, mode: number): number;
  _fvad_set_sample_rate(handle: number, rate: number): number;
  _fvad_process(handle: number, frame: number, length: number): number;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
}

let loading: Promise<FvadModule> | undefined;

/** Instantiates the WebAssembly module once per process (a few ms). */
export function loadFvad(): Promise<FvadModule> {
  loading ??= import('@echogarden/fvad-wasm').then(async ({ default: factory }) => (await factory()) as FvadModule);
  return loading;
}

/**
 * WebRTC's voice activity detector (libfvad compiled to WebAssembly): 30 ms frames at
 * 16 kHz, answers 0 or 1. `mode` 0–3 goes from permissive to aggressive (3, the default,
 * lets the least noise through).
 */
export class WebRtcVad implements VoiceActivityDetector {
  readonly name = 'webrtc';
  readonly frameSamples = WEBRTC_FRAME_SAMPLES;
  /** fvad (mode 3) keeps calling the tail of speech speech for ≈ 85–110 ms (espeak-ng sentences, docs/calls.md). */
  readonly hangoverMs = 90;
  private handle: number;
  private readonly buffer: number;

  constructor(
    private readonly fvad: FvadModule,
    private readonly mode = 3,
  ) {
    if (!Number.isInteger(mode) || mode < 0 || mode > 3)
      throw new RangeError(`the WebRTC VAD mode is 0–3, not ${mode}`);
    this.handle = fvad._fvad_new();
    if (!this.handle) throw new Error('fvad_new failed');
    this.buffer = fvad._malloc(WEBRTC_FRAME_SAMPLES * 2);
    this.configure();
  }

  private configure(): void {
    if (
      this.fvad._fvad_set_sample_rate(this.handle, 16_000) < 0 ||
      this.fvad._fvad_set_mode(this.handle, this.mode) < 0
    ) {
      this.close();
      throw new Error('fvad rejected the sample rate or the mode');
    }
  }

  /** A detector once the module is loaded. */
  static async create(mode = 3): Promise<WebRtcVad> {
    return new WebRtcVad(await loadFvad(), mode);
  }

  speechProbability(frame: Int16Array): number {
    if (!this.handle) throw new Error('the WebRTC VAD is closed');
    if (frame.length !== WEBRTC_FRAME_SAMPLES)
      throw new RangeError(`the WebRTC VAD takes ${WEBRTC_FRAME_SAMPLES} samples per frame, not ${frame.length}`);
    // HEAP16 is read at each call: the heap's buffer changes when the module's memory grows.
    this.fvad.HEAP16.set(frame, this.buffer >> 1);
    const result = this.fvad._fvad_process(this.handle, this.buffer, WEBRTC_FRAME_SAMPLES);
    if (result < 0) throw new Error('fvad could not process the frame');
    return result;
  }

  reset(): void {
    if (!this.handle) return;
    // fvad_reset also puts the mode and the sample rate back to their defaults (0, 8 kHz).
    this.fvad._fvad_reset(this.handle);
    this.configure();
  }

  close(): void {
    if (!this.handle) return;
    this.fvad._fvad_free(this.handle);
    this.fvad._free(this.buffer);
    this.handle = 0;
  }
}
