import type createEspeak from '@echogarden/espeak-ng-emscripten';
import type { Locale } from '@reverie/shared';
import { TtsError, toTtsError, type Speech, type SpeechRequest, type TtsProvider } from './tts-provider.js';

/** espeak-ng's output: 22 050 Hz mono 16-bit PCM. */
export const ESPEAK_SAMPLE_RATE = 22_050;

/** The espeak-ng voice of each interface language (`ch` is Mandarin, with tones). */
const LANGUAGE_VOICES: Record<Locale, string> = { en: 'en-us', de: 'de', es: 'es', ru: 'ru', ch: 'cmn' };
/** Base voices a character may keep when the message is in that language (`en-gb` for English…). */
const SAME_LANGUAGE = /^(?:en|de|es|ru|cmn)(?:-[a-z0-9]+)*$/;
const VARIANT = /^[a-z0-9_]{1,20}$/i;

/**
 * The espeak-ng voice for a message: the language's voice with the character's variant
 * (`en-us+f3` speaking Russian → `ru+f3`). A character whose base voice already speaks the
 * message's language keeps it (`en-gb+m1` in English stays `en-gb+m1`).
 */
export function espeakVoiceFor(characterVoice: string, language: Locale): string {
  const [rawBase = '', rawVariant] = characterVoice.trim().toLowerCase().split('+', 2);
  const languageVoice = LANGUAGE_VOICES[language];
  const family = languageVoice.split('-')[0]!;
  const base = SAME_LANGUAGE.test(rawBase) && rawBase.split('-')[0] === family ? rawBase : languageVoice;
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

type EspeakWorker = InstanceType<Awaited<ReturnType<typeof createEspeak>>['eSpeakNGWorker']>;

let loading: Promise<EspeakWorker> | null = null;

/** Loads the WebAssembly engine once per process (≈ 0.2 s), on the first synthesis. */
function loadEspeak(): Promise<EspeakWorker> {
  loading ??= (async () => {
    const { default: createModule } = await import('@echogarden/espeak-ng-emscripten');
    const module = await createModule();
    return new module.eSpeakNGWorker();
  })().catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * espeak-ng compiled to WebAssembly, in process: no network, no system binary, all five
 * languages. The engine is synchronous; text is spoken a sentence group at a time with a
 * turn of the event loop between groups, so one long message never blocks the server for
 * long, and an abort takes effect between groups.
 */
export class EspeakTtsProvider implements TtsProvider {
  readonly name = 'espeak';

  async synthesise({ text, voice, language, signal }: SpeechRequest): Promise<Speech> {
    try {
      signal?.throwIfAborted();
      const engine = await loadEspeak();
      const wanted = espeakVoiceFor(voice, language);
      const chunks: Int16Array[] = [];
      let total = 0;
      for (const piece of splitForSpeech(text)) {
        signal?.throwIfAborted();
        // The engine is shared: set the voice for every piece (another job may have changed it).
        if (engine.set_voice(wanted) !== 0 && engine.set_voice(LANGUAGE_VOICES[language]) !== 0) {
          throw new TtsError('unknown_voice', `espeak-ng has no voice ${wanted}`, this.name);
        }
        engine.synthesize(piece, (samples) => {
          if (samples?.length) {
            chunks.push(samples);
            total += samples.length;
          }
          return false;
        });
        await nextTurn();
      }
      if (total === 0) throw new TtsError('empty_output', 'espeak-ng produced no sound', this.name);
      const samples = new Int16Array(total);
      let offset = 0;
      for (const chunk of chunks) {
        samples.set(chunk, offset);
        offset += chunk.length;
      }
      return { format: 'pcm16', sampleRate: ESPEAK_SAMPLE_RATE, samples };
    } catch (error) {
      throw toTtsError(error, this.name, signal);
    }
  }
}
