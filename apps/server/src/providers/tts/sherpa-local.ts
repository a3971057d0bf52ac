import path from 'node:path';
import type { Locale } from '@reverie/shared';
import { pullFiles, progressLogger, type ModelFile, type PullLog } from '../models/pull.js';
import { floatToPcm16, loadSherpaOnnx, SerialQueue, type SherpaOfflineTts } from '../models/sherpa.js';
import { EspeakTtsProvider, splitForSpeech } from './espeak.js';
import { toTtsError, voiceGender, type Speech, type SpeechRequest, type TtsProvider } from './tts-provider.js';

/** A Piper voice as sherpa-onnx publishes it (`vits-piper-<name>`), and the speaker to use in it. */
export interface PiperVoice {
  name: string;
  speaker: number;
}

/**
 * One woman's and one man's Piper voice per interface language, where Piper has one (it has
 * no Mandarin man's voice: a man speaking Chinese uses espeak-ng's male voice). All are
 * "medium" (22 050 Hz, ≈ 60 MB) except Kerstin (low). es_ES-sharvard has two speakers:
 * 0 is the man, 1 the woman.
 */
export const PIPER_VOICES: Record<Locale, Record<'female' | 'male', PiperVoice | null>> = {
  en: { female: { name: 'en_US-amy-medium', speaker: 0 }, male: { name: 'en_US-ryan-medium', speaker: 0 } },
  de: { female: { name: 'de_DE-kerstin-low', speaker: 0 }, male: { name: 'de_DE-thorsten-medium', speaker: 0 } },
  es: { female: { name: 'es_ES-sharvard-medium', speaker: 1 }, male: { name: 'es_ES-davefx-medium', speaker: 0 } },
  ru: { female: { name: 'ru_RU-irina-medium', speaker: 0 }, male: { name: 'ru_RU-dmitri-medium', speaker: 0 } },
  ch: { female: { name: 'zh_CN-huayan-medium', speaker: 0 }, male: null },
};

/**
 * The files of espeak-ng's data Piper's phonemizer needs for the five languages (phoneme
 * tables, the dictionaries, the language definitions), pulled once and shared by every voice.
 */
export const ESPEAK_DATA_FILES = [
  'phontab',
  'phonindex',
  'phondata',
  'intonations',
  'en_dict',
  'de_dict',
  'es_dict',
  'ru_dict',
  'cmn_dict',
  'lang/gmw/en-US',
  'lang/gmw/de',
  'lang/roa/es',
  'lang/zle/ru',
  'lang/sit/cmn',
];
/** The voice repository whose copy of espeak-ng's data is pulled. */
const ESPEAK_DATA_VOICE = 'en_US-amy-medium';

/** After a voice failed to pull or load, espeak-ng speaks for it for this long before another try. */
const RETRY_AFTER_MS = 5 * 60_000;

export interface LocalTtsOptions {
  /** Under which each voice is `vits-piper-<name>/resolve/main/<file>`; sherpa-onnx's Hugging Face account by default. */
  baseUrl?: string;
  /** `DATA_DIR/models/tts`. */
  dir: string;
  threads: number;
  log: PullLog & { error(msg: string): void };
  /** Speaks while a voice is pulling or when it cannot be pulled (espeak-ng by default). */
  fallback?: TtsProvider;
  pull?: { attempts?: number; stallMs?: number; retryDelayMs?: number };
}

type VoiceState =
  | { kind: 'loading'; progress: number | null; done: Promise<void> }
  | { kind: 'ready'; tts: SherpaOfflineTts; queue: SerialQueue }
  | { kind: 'failed'; reason: string; at: number };

/** Where each file of a voice comes from. */
export function piperFiles(voice: string, baseUrl = 'https://huggingface.co/csukuangfj'): ModelFile[] {
  const base = `${baseUrl.replace(/\/+$/, '')}/vits-piper-${voice}/resolve/main`;
  return [`${voice}.onnx`, 'tokens.txt'].map((name) => ({ url: `${base}/${name}`, name: `${voice}/${name}` }));
}

export function espeakDataFiles(baseUrl = 'https://huggingface.co/csukuangfj'): ModelFile[] {
  const base = `${baseUrl.replace(/\/+$/, '')}/vits-piper-${ESPEAK_DATA_VOICE}/resolve/main/espeak-ng-data`;
  return ESPEAK_DATA_FILES.map((name) => ({ url: `${base}/${name}`, name: `espeak-ng-data/${name}` }));
}

/** The Piper voice for a character's voice and a language, or null (espeak-ng speaks). */
export function piperVoiceFor(characterVoice: string, language: Locale): PiperVoice | null {
  const voices = PIPER_VOICES[language];
  const gender = voiceGender(characterVoice);
  // A voice of no clear sex: the language's woman's voice (then the man's).
  if (gender === null) return voices.female ?? voices.male;
  return voices[gender];
}

/**
 * A local neural voice: Piper (VITS) voices through sherpa-onnx-node's offline TTS, pulled
 * into `DATA_DIR/models/tts` on first use, one woman's and one man's voice per language
 * chosen by the character's voice (`voiceGender`). It never fails for want of a model: while
 * a voice is pulling, when it cannot be pulled or loaded, and for a Mandarin man, espeak-ng
 * speaks. Synthesis runs on libuv's thread pool (sherpa's asynchronous generation), a piece
 * of a sentence or two at a time so that an abort takes effect between pieces.
 */
export class LocalTtsProvider implements TtsProvider {
  readonly name = 'local';
  private readonly voices = new Map<string, VoiceState>();
  private espeakData: Promise<string> | null = null;
  private readonly fallback: TtsProvider;
  private readonly closing = new AbortController();

  constructor(private readonly options: LocalTtsOptions) {
    this.fallback = options.fallback ?? new EspeakTtsProvider();
  }

  /** Whether a language's voice of that sex is ready, loading (with progress) or failed; for status pages and tests. */
  voiceStatus(
    voice: string,
  ):
    | { state: 'absent' }
    | { state: 'loading'; progress: number | null }
    | { state: 'ready' }
    | { state: 'unavailable'; reason: string } {
    const state = this.voices.get(voice);
    if (!state) return { state: 'absent' };
    if (state.kind === 'loading') return { state: 'loading', progress: state.progress };
    if (state.kind === 'failed') return { state: 'unavailable', reason: state.reason };
    return { state: 'ready' };
  }

  /** Pulls and loads a voice now (it otherwise starts on its first sentence); resolves either way. */
  prepare(voice: PiperVoice): Promise<void> {
    const state = this.voices.get(voice.name);
    if (state?.kind === 'ready') return Promise.resolve();
    if (state?.kind === 'loading') return state.done;
    if (state?.kind === 'failed' && Date.now() - state.at < RETRY_AFTER_MS) return Promise.resolve();
    const done = this.load(voice.name);
    this.voices.set(voice.name, { kind: 'loading', progress: null, done });
    return done;
  }

  async synthesise(request: SpeechRequest): Promise<Speech> {
    const voice = piperVoiceFor(request.voice, request.language);
    const state = voice ? this.voices.get(voice.name) : undefined;
    if (!voice || state?.kind !== 'ready') {
      if (voice) void this.prepare(voice);
      return this.fallback.synthesise({ ...request, format: 'pcm16' });
    }
    try {
      return await state.queue.run(() => this.generate(state.tts, voice.speaker, request));
    } catch (error) {
      const failure = toTtsError(error, this.name, request.signal);
      if (failure.code === 'aborted' || failure.code === 'timeout') throw failure;
      this.options.log.warn(`the local voice ${voice.name} failed (${failure.message}); espeak-ng speaks instead`);
      return this.fallback.synthesise({ ...request, format: 'pcm16' });
    }
  }

  close(): void {
    this.closing.abort();
  }

  private async generate(tts: SherpaOfflineTts, speaker: number, { text, signal }: SpeechRequest): Promise<Speech> {
    const parts: Int16Array[] = [];
    for (const piece of splitForSpeech(text)) {
      signal?.throwIfAborted();
      const audio = await tts.generateAsync({ text: piece, sid: speaker, speed: 1 });
      parts.push(floatToPcm16(audio.samples));
    }
    signal?.throwIfAborted();
    const samples = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
    let offset = 0;
    for (const part of parts) {
      samples.set(part, offset);
      offset += part.length;
    }
    if (samples.length === 0) throw new Error('the local voice produced no sound');
    return { format: 'pcm16', sampleRate: tts.sampleRate, samples };
  }

  private async load(name: string): Promise<void> {
    const { dir, log, baseUrl } = this.options;
    const label = `the voice ${name}`;
    const logProgress = progressLogger(log, label);
    const failed = (reason: string) => {
      this.voices.set(name, { kind: 'failed', reason, at: Date.now() });
      log.error(`${reason}; espeak-ng speaks instead`);
    };
    let dataDir: string;
    let model: string;
    let tokens: string;
    try {
      this.espeakData ??= pullFiles(dir, espeakDataFiles(baseUrl), {
        signal: this.closing.signal,
        log,
        label: "espeak-ng's data for the local voices",
        ...this.options.pull,
      })
        .then(() => path.join(dir, 'espeak-ng-data'))
        .catch((error: unknown) => {
          this.espeakData = null;
          throw error;
        });
      dataDir = await this.espeakData;
      [model, tokens] = (await pullFiles(dir, piperFiles(name, baseUrl), {
        signal: this.closing.signal,
        log,
        label,
        ...this.options.pull,
        onProgress: (fraction, detail) => {
          const state = this.voices.get(name);
          if (state?.kind === 'loading') state.progress = fraction;
          logProgress(fraction, detail);
        },
      })) as [string, string];
    } catch (error) {
      return failed(`cannot download ${label} into ${dir}: ${message(error)}`);
    }
    try {
      const tts = await loadSherpaOnnx().OfflineTts.createAsync({
        model: { vits: { model, tokens, dataDir }, numThreads: this.options.threads, provider: 'cpu', debug: 0 },
        maxNumSentences: 1,
      });
      this.voices.set(name, { kind: 'ready', tts, queue: new SerialQueue() });
      log.info(`local voice ready: ${name} (${tts.sampleRate} Hz)`);
    } catch (error) {
      failed(`cannot load ${label} from ${path.join(dir, name)}: ${message(error)}`);
    }
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0]! : String(error);
}
