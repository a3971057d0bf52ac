import type { Locale } from '@reverie/shared';
import { audioThread } from './audio-thread.js';
import { TtsError, toTtsError, type Speech, type SpeechRequest, type TtsProvider } from './tts-provider.js';

/** espeak-ng's output: 22 050 Hz mono 16-bit PCM. */
export const ESPEAK_SAMPLE_RATE = 22_050;

/** The espeak-ng voice of each interface language (`ch` is Mandarin, with tones). */
const LANGUAGE_VOICES: Record<Locale, string> = { en: 'en-us', de: 'de', es: 'es', ru: 'ru', ch: 'cmn' };
/** Base voices a character may keep when the message is in that language (`en-gb` for English…). */
const SAME_LANGUAGE = /^(?:en|de|es|ru|cmn)(?:-[a-z0-9]+)*$/;
const VARIANT = /^[a-z0-9_]{1,20}$/i;
/**
 * Names espeak-ng's data does not know under the name characters use: British English is
 * `en` (`en-gb` fails to load, and the synthesis fell back to the American male voice).
 */
const ALIASES: Record<string, string> = { 'en-gb': 'en' };

/**
 * The espeak-ng voice for a message: the language's voice with the character's variant
 * (`en-us+f3` speaking Russian → `ru+f3`). A character whose base voice already speaks the
 * message's language keeps it (`en-gb+m1` in English stays `en-gb+m1`).
 */
export function espeakVoiceFor(characterVoice: string, language: Locale): string {
  const [rawBase = '', rawVariant] = characterVoice.trim().toLowerCase().split('+', 2);
  const languageVoice = LANGUAGE_VOICES[language];
  const family = languageVoice.split('-')[0]!;
  const kept = SAME_LANGUAGE.test(rawBase) && rawBase.split('-')[0] === family ? rawBase : languageVoice;
  const base = ALIASES[kept] ?? kept;
  return rawVariant && VARIANT.test(rawVariant) ? `${base}+${rawVariant}` : base;
}

/** Splits text into pieces of at most `max` characters, at sentence ends where possible. */
export function splitForSpeech(text: string, max = 200): string[] {
  const sentences = text.match(/[^.!?。！？…\n]+[.!?。！？…]*\s*|\n+/g) ?? [text];
  const pieces: string[] = [];
  let current = '';
  for (const sentence of sentences) {
    if (current && current.length + sentence.length > max) {
      pieces.push(current);
      current = '';
    }
    if (sentence.length > max) {
      for (let i = 0; i < sentence.length; i += max) pieces.push(sentence.slice(i, i + max));
    } else current += sentence;
  }
  if (current) pieces.push(current);
  return pieces.map((p) => p.trim()).filter(Boolean);
}

/**
 * espeak-ng compiled to WebAssembly, in the audio worker thread (`audio-thread.ts`): no
 * network, no system binary, all five languages, and the server's event loop stays free.
 * The engine loads once, on the first synthesis; the text goes in pieces of a sentence or
 * two, and an abort takes effect at the next piece.
 */
export class EspeakTtsProvider implements TtsProvider {
  readonly name = 'espeak';

  async synthesise({ text, voice, language, signal }: SpeechRequest): Promise<Speech> {
    try {
      const answer = await audioThread.call(
        {
          type: 'speak',
          pieces: splitForSpeech(text),
          voice: espeakVoiceFor(voice, language),
          // The language's voice with the same variant: a base voice espeak-ng lacks never
          // turns a woman's voice into the default male one.
          fallbackVoice: espeakVoiceFor(voice.replace(/^[^+]*/, ''), language),
        },
        this.name,
        signal,
      );
      const samples = answer.samples!;
      if (samples.length === 0) throw new TtsError('empty_output', 'espeak-ng produced no sound', this.name);
      return { format: 'pcm16', sampleRate: ESPEAK_SAMPLE_RATE, samples };
    } catch (error) {
      throw toTtsError(error, this.name, signal);
    }
  }
}
