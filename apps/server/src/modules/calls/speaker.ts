import { MPEGDecoder } from 'mpg123-decoder';
import type { Locale } from '@reverie/shared';
import { resample } from '../../lib/pcm.js';
import type { Speech, TtsProvider } from '../../providers/tts/index.js';

/** One MP3 decoder (WebAssembly, compiled once) for the process, used by one call at a time. */
let decoder: Promise<MPEGDecoder> | null = null;
let decoding: Promise<unknown> = Promise.resolve();

function decodeMp3(data: Buffer): Promise<{ samples: Int16Array; sampleRate: number }> {
  const run = decoding.then(async () => {
    const mp3 = await (decoder ??= (async () => {
      const fresh = new MPEGDecoder();
      await fresh.ready;
      return fresh;
    })());
    await mp3.reset();
    const decoded = mp3.decode(new Uint8Array(data.buffer, data.byteOffset, data.length));
    const channel = decoded.channelData[0] ?? new Float32Array(0);
    const samples = new Int16Array(decoded.samplesDecoded);
    for (let i = 0; i < samples.length; i++)
      samples[i] = Math.round(Math.max(-1, Math.min(1, channel[i] ?? 0)) * 32767);
    return { samples, sampleRate: decoded.sampleRate };
  });
  decoding = run.catch(() => undefined);
  return run;
}

/**
 * Samples of a provider's speech at the call's output rate. Providers asked for `pcm16`
 * answer PCM; one that can only answer MP3 (or an older provider) is decoded here.
 */
export async function speechToPcm(speech: Speech, outputRate: number): Promise<Int16Array> {
  if (speech.format === 'pcm16') return resample(speech.samples, speech.sampleRate, outputRate);
  const { samples, sampleRate } = await decodeMp3(speech.data);
  return resample(samples, sampleRate, outputRate);
}

/** One sentence said by the character in a turn. */
interface Sentence {
  text: string;
  /** The message it belongs to: the reply (cut on barge-in) or a notice (never cut). */
  messageId: string | null;
  cuttable: boolean;
  pcm: Promise<Int16Array> | null;
  /** Where it starts in the turn's audio and how long it lasts (ms); set when it starts playing. */
  startMs: number;
  durationMs: number;
}

export interface SpeakerOptions {
  tts: TtsProvider;
  voice: string;
  /** The language of the turn's speech (decided from its first sentence). */
  language: (firstSentence: string) => Locale;
  outputRate: number;
  /** How far ahead of the client's playback audio is sent (ms). */
  leadMs: number;
  /** The length of one binary frame (ms). */
  chunkMs?: number;
  ttsTimeoutMs: number;
  sendAudio(pcm: Buffer): void;
  /** The first frame of the turn is about to go (audio_start). */
  onStart(): void;
  /** A sentence starts playing at the client (its caption). */
  onSentence(text: string, messageId: string | null): void;
  /** A sentence could not be synthesised (it is skipped). */
  onError(error: unknown): void;
  now?: () => number;
  /** Stage times for the benchmark. */
  onFirstSynthesis?(ms: number): void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(1, ms)));

/**
 * The character's voice for one turn (docs/calls.md "Pacing"): sentences are synthesised one
 * ahead of the one playing, resampled to the output rate and sent in frames of `chunkMs`, paced
 * in real time so the client holds at most `leadMs` of audio. It knows how much the client has
 * played (its own estimate from the pacing), which is what a barge-in cuts the reply to.
 */
export class Speaker {
  private readonly sentences: Sentence[] = [];
  private ended = false;
  private stopped = false;
  private wake: (() => void) | null = null;
  private language: Locale | null = null;
  private readonly controller = new AbortController();
  /** Audio sent this turn (ms) and when the client will have played all of it (clock ms). */
  private sentMs = 0;
  private bufferedUntil = 0;
  private started = false;
  readonly finished: Promise<void>;
  private readonly now: () => number;

  constructor(private readonly options: SpeakerOptions) {
    this.now = options.now ?? (() => performance.now());
    this.finished = this.run();
  }

  /** True once a frame was sent. */
  get hasAudio(): boolean {
    return this.started;
  }

  /** Adds a sentence to say (in order). */
  add(text: string, messageId: string | null, cuttable: boolean): void {
    if (this.ended || this.stopped) return;
    this.sentences.push({ text, messageId, cuttable, pcm: null, startMs: 0, durationMs: 0 });
    this.signal();
  }

  /** No more sentences: `finished` resolves once all are sent. */
  end(): void {
    this.ended = true;
    this.signal();
  }

  /** Stops at once (barge-in, hang-up): nothing more is synthesised or sent. */
  stop(): void {
    this.stopped = true;
    this.controller.abort(new Error('the turn was interrupted'));
    this.signal();
  }

  /** Audio the client has played by now, as the pacing estimates it (ms). */
  playedMs(): number {
    return Math.max(0, this.sentMs - Math.max(0, this.bufferedUntil - this.now()));
  }

  /** How long until the client has played everything sent (ms). */
  remainingMs(): number {
    return Math.max(0, this.bufferedUntil - this.now());
  }

  /**
   * The words of the reply the user heard when `playedMs` of the turn's audio had played: the
   * sentences played in full and the played share of the current one, cut at a word boundary.
   */
  heardText(playedMs: number): string {
    const heard: string[] = [];
    for (const sentence of this.sentences) {
      if (!sentence.cuttable || sentence.durationMs === 0) continue;
      if (sentence.startMs + sentence.durationMs <= playedMs + 1) {
        heard.push(sentence.text);
        continue;
      }
      if (sentence.startMs >= playedMs) break;
      const share = (playedMs - sentence.startMs) / sentence.durationMs;
      heard.push(cutAtWord(sentence.text, share));
      break;
    }
    return heard.filter(Boolean).join(' ');
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  private synthesise(sentence: Sentence): Promise<Int16Array> {
    const { tts, voice, outputRate, ttsTimeoutMs } = this.options;
    this.language ??= this.options.language(sentence.text);
    // A timer the event loop holds (AbortSignal.timeout's signal may be collected while a
    // provider that holds no socket waits on it, and the sentence would never end).
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new DOMException('the speech took too long', 'TimeoutError')),
      ttsTimeoutMs,
    );
    const onStop = () => controller.abort(this.controller.signal.reason);
    if (this.controller.signal.aborted) onStop();
    else this.controller.signal.addEventListener('abort', onStop, { once: true });
    const started = this.now();
    const pcm = tts
      .synthesise({ text: sentence.text, voice, language: this.language, format: 'pcm16', signal: controller.signal })
      .then((speech) => speechToPcm(speech, outputRate))
      .then((samples) => {
        if (this.options.onFirstSynthesis && sentence === this.sentences[0])
          this.options.onFirstSynthesis(this.now() - started);
        return samples;
      })
      .finally(() => {
        clearTimeout(timer);
        this.controller.signal.removeEventListener('abort', onStop);
      });
    pcm.catch(() => undefined);
    return pcm;
  }

  /** Starts the synthesis of the sentence at `index` and of the one after it. */
  private prefetch(index: number): void {
    for (const sentence of this.sentences.slice(index, index + 2)) sentence.pcm ??= this.synthesise(sentence);
  }

  private async run(): Promise<void> {
    const chunkSamples = Math.round((this.options.outputRate * (this.options.chunkMs ?? 20)) / 1000);
    for (let index = 0; ; index++) {
      while (index >= this.sentences.length && !this.ended && !this.stopped)
        await new Promise<void>((resolve) => (this.wake = resolve));
      if (this.stopped || index >= this.sentences.length) return;
      this.prefetch(index);
      const sentence = this.sentences[index]!;
      let samples: Int16Array;
      try {
        samples = await sentence.pcm!;
      } catch (error) {
        if (this.stopped) return;
        this.options.onError(error);
        continue;
      }
      if (this.stopped) return;
      this.prefetch(index + 1);
      if (samples.length === 0) continue;
      if (!this.started) {
        this.started = true;
        this.options.onStart();
      }
      sentence.startMs = this.sentMs;
      sentence.durationMs = (samples.length * 1000) / this.options.outputRate;
      // Its caption when the client starts playing it.
      const startsIn = Math.max(0, this.bufferedUntil - this.now());
      const caption = () => {
        if (!this.stopped) this.options.onSentence(sentence.text, sentence.messageId);
      };
      if (startsIn < 5) caption();
      else setTimeout(caption, startsIn).unref();
      for (let offset = 0; offset < samples.length; offset += chunkSamples) {
        for (;;) {
          if (this.stopped) return;
          const ahead = this.bufferedUntil - this.now();
          if (ahead <= this.options.leadMs) break;
          await sleep(ahead - this.options.leadMs);
        }
        const chunk = samples.subarray(offset, Math.min(samples.length, offset + chunkSamples));
        const ms = (chunk.length * 1000) / this.options.outputRate;
        this.options.sendAudio(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        this.bufferedUntil = Math.max(this.now(), this.bufferedUntil) + ms;
        this.sentMs += ms;
      }
    }
  }
}

/** The first `share` of a sentence, ending at a word boundary (a character for scripts without spaces). */
export function cutAtWord(text: string, share: number): string {
  if (share <= 0) return '';
  if (share >= 1) return text;
  if (!/\s/.test(text.trim())) return text.slice(0, Math.floor(text.length * share));
  const words = text.split(/\s+/).filter(Boolean);
  const count = Math.floor(words.length * share);
  return words.slice(0, count).join(' ');
}
