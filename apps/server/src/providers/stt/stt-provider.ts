import type { Locale } from '@reverie/shared';
import { ProviderError } from '../provider-error.js';
import type { SttAvailability } from './availability.js';

/** One utterance to recognise: mono 16-bit PCM (16 kHz in calls). */
export interface TranscriptionRequest {
  pcm: Int16Array;
  sampleRate: number;
  /** The language the user probably speaks (the interface language); null lets the model detect it. */
  language: Locale | null;
  signal?: AbortSignal;
}

export interface Transcription {
  /** What was said, trimmed; empty when nothing intelligible was heard. */
  text: string;
}

/** Why a recognition failed; stable codes (`stt_unavailable` reaches the user). */
export type SttErrorCode = 'stt_unavailable' | 'provider_error' | 'timeout' | 'aborted';

/** Every provider failure is one of these. */
export class SttError extends ProviderError<SttErrorCode> {
  override name = 'SttError';
}

/** Whether calls can be understood now: a local model may still be downloading. */
export type SttStatus =
  { state: 'ready' } | { state: 'loading'; progress: number | null } | { state: 'unavailable'; reason: string };

/** Speech to text: an OpenAI-compatible `/audio/transcriptions` endpoint, or a local model pulled on first use. */
export interface SttProvider {
  readonly name: string;
  status(): SttStatus;
  /**
   * Whether recognition can run, asked before a call is admitted: a model present or
   * pullable (its host answers), a remote provider answering. Cheap: probes are kept a while
   * (`availability.ts`), concurrent callers share one. `fresh` (the call token) waits for a
   * new probe when the kept answer has aged; `cached` (`/api/config`) answers the kept one.
   */
  availability(mode?: 'cached' | 'fresh'): Promise<SttAvailability>;
  /** Starts loading (pulling) what the provider needs; resolves when it is ready, rejects with `stt_unavailable`. */
  prepare(): Promise<void>;
  transcribe(request: TranscriptionRequest): Promise<Transcription>;
  close?(): Promise<void>;
}
