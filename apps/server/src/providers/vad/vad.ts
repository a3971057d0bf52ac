/**
 * Voice activity detection on 16 kHz mono PCM16 (docs/calls.md): Silero through
 * sherpa-onnx-node, or WebRTC's VAD (fvad in WebAssembly) as the fallback.
 */
export interface VoiceActivityDetector {
  readonly name: string;
  /** The samples one call of `speechProbability` takes (Silero 512, fvad 480 at 16 kHz). */
  readonly frameSamples: number;
  /**
   * How long (ms) the detector goes on calling frames speech after the speech ended (its
   * hangover, measured on espeak-ng speech: docs/calls.md). The turn detector counts it as
   * silence already heard, so the end-of-turn silence is the configured one, not that plus it.
   */
  readonly hangoverMs?: number;
  /** 0–1: how likely the frame is speech (fvad answers 0 or 1). */
  speechProbability(frame: Int16Array): number;
  reset(): void;
  close(): void;
}

/** What the turn detector tells the call (all times in ms of audio received). */
export type TurnEvent =
  /** The user has been speaking for at least the minimum speech length (a cough does not count). */
  | { type: 'speech_start'; atMs: number }
  /** The user stopped: the utterance's audio (with a little pre-roll), after the end-of-turn silence. */
  | { type: 'speech_end'; atMs: number; pcm: Int16Array; speechMs: number };

export interface TurnDetectorOptions {
  /** Silence that ends the user's turn (CALL_END_OF_TURN_MS, default 600). */
  endOfTurnMs: number;
  /** Speech shorter than this is noise: neither a turn nor an interruption (CALL_MIN_SPEECH_MS, default 250). */
  minSpeechMs: number;
  /** Audio kept from before the speech started, so the first syllable is not cut (default 300). */
  preRollMs?: number;
  /** A turn longer than this ends anyway (default 30 000). */
  maxTurnMs?: number;
  /** Probability from which a frame counts as speech (default 0.5). */
  threshold?: number;
}
