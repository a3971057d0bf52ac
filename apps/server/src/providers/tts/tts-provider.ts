import type { Locale } from '@reverie/shared';
import { ProviderError } from '../provider-error.js';

/** What to say, with which voice, in which language (one of the interface languages). */
export interface SpeechRequest {
  text: string;
  /** The character's voice: an espeak-ng voice (`en-us+f3`) or the provider's voice name or id. */
  voice: string;
  language: Locale;
  /** The caller's preferred output; providers that can answer raw PCM do (calls). */
  format?: 'pcm16' | 'mp3';
  /** Aborts the synthesis (a time limit, the server shutting down). */
  signal?: AbortSignal;
}

/**
 * Synthesised speech: raw mono 16-bit PCM (the embedded engines; remote providers when the
 * request prefers `pcm16`) or audio already encoded as MP3 (remote providers by default).
 */
export type Speech = { format: 'pcm16'; sampleRate: number; samples: Int16Array } | { format: 'mp3'; data: Buffer };

/** Why a synthesis failed; stable codes that the audio job logs. */
export type TtsErrorCode = 'provider_error' | 'timeout' | 'aborted' | 'unknown_voice' | 'empty_output';

/** Every provider failure is one of these. */
export class TtsError extends ProviderError<TtsErrorCode> {
  override name = 'TtsError';
}

/** Text to speech: espeak-ng in process (the default), a local neural voice (Piper), an OpenAI-compatible endpoint or ElevenLabs. */
export interface TtsProvider {
  readonly name: string;
  synthesise(request: SpeechRequest): Promise<Speech>;
  /** Stops what runs in the background (a local voice's download) on shutdown. */
  close?(): void;
}

/** Turns an abort or a network failure into a TtsError naming the provider. */
export function toTtsError(error: unknown, provider: string, signal?: AbortSignal): TtsError {
  if (error instanceof TtsError) return error;
  if (signal?.aborted) {
    const reason = signal.reason as { name?: string } | undefined;
    return reason?.name === 'TimeoutError'
      ? new TtsError('timeout', 'the speech took too long', provider, { cause: error })
      : new TtsError('aborted', 'the speech was cancelled', provider, { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new TtsError('provider_error', message, provider, { cause: error });
}

/**
 * True when a voice is an espeak-ng voice (`en-us+f3`, `de`, `cmn`): remote providers then
 * use their configured default voice instead of the character's.
 */
export function isEspeakVoice(voice: string): boolean {
  const [base = '', variant] = voice.trim().toLowerCase().split('+', 2);
  if (variant !== undefined) return /^[a-z]{2,3}(-[a-z0-9]+)*$/.test(base);
  return ESPEAK_LANGUAGE_CODES.has(base);
}

const ESPEAK_LANGUAGE_CODES = new Set([
  'en',
  'en-us',
  'en-gb',
  'en-gb-scotland',
  'en-029',
  'en-gb-x-rp',
  'de',
  'es',
  'es-419',
  'ru',
  'ru-lv',
  'cmn',
  'cmn-latn-pinyin',
  'yue',
  'zh',
  'fr',
  'fr-fr',
  'it',
  'pt',
  'pt-br',
  'pl',
  'nl',
  'uk',
  'ja',
  'ko',
]);

/**
 * The sex an espeak-ng voice's variant gives (`en-us+f3` female, `de+m1` male; the named
 * variants of female and male speakers too), or null (no variant, or a provider's own voice).
 */
export function voiceGender(voice: string): 'female' | 'male' | null {
  if (!isEspeakVoice(voice)) return null;
  const variant = voice.trim().toLowerCase().split('+', 2)[1];
  if (!variant) return null;
  if (/^f\d+$/.test(variant) || FEMALE_VARIANTS.has(variant)) return 'female';
  if (/^m\d+$/.test(variant) || MALE_VARIANTS.has(variant)) return 'male';
  return null;
}

/** espeak-ng's named variants of a female or male speaker (voices/!v). */
const FEMALE_VARIANTS = new Set(['alicia', 'andrea', 'anika', 'annie', 'aunty', 'belinda', 'grandma', 'linda']);
const MALE_VARIANTS = new Set(['adam', 'alex', 'benjamin', 'boris', 'caleb', 'david', 'edward', 'grandpa', 'john']);

/** A remote provider's voices for characters whose voice is an espeak-ng voice, by its sex. */
export interface RemoteVoices {
  /** The default (a voice without a variant, or one of no clear sex). */
  voice: string;
  female: string;
  male: string;
}

/**
 * The remote provider's voice for a character: its own voice when it names one of the
 * provider's (`nova`, an ElevenLabs voice id); for an espeak-ng voice, the configured voice
 * of the variant's sex (`en-us+f3` → female), else the default.
 */
export function remoteVoiceFor(characterVoice: string, voices: RemoteVoices): string {
  if (characterVoice && !isEspeakVoice(characterVoice)) return characterVoice;
  const gender = voiceGender(characterVoice);
  return gender === 'female' ? voices.female : gender === 'male' ? voices.male : voices.voice;
}
