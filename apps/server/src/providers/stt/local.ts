import path from 'node:path';
import type { Config } from '../../config.js';
import { resample } from '../../lib/pcm.js';
import { pulled, pullFiles, progressLogger, type ModelFile, type PullLog } from '../models/pull.js';
import { loadSherpaOnnx, pcm16ToFloat, SerialQueue, type SherpaOfflineRecognizer } from '../models/sherpa.js';
import { CachedCheck, PROBE_FAILED_TTL_MS, PROBE_OK_TTL_MS, probeHttp, type SttAvailability } from './availability.js';
import { SttError, type SttProvider, type SttStatus, type TranscriptionRequest } from './stt-provider.js';

/** The Whisper models sherpa-onnx publishes (int8, multilingual: en, zh, es, de, ru and more). */
export const WHISPER_MODELS = {
  /** ≈ 104 MB (encoder 12.9 MB, decoder 89.9 MB). */
  'whisper-tiny': { repository: 'csukuangfj/sherpa-onnx-whisper-tiny', prefix: 'tiny' },
  /** ≈ 160 MB; clearly better on Chinese and Russian, about twice the CPU. */
  'whisper-base': { repository: 'csukuangfj/sherpa-onnx-whisper-base', prefix: 'base' },
} as const;
export type WhisperModel = keyof typeof WHISPER_MODELS;

/** Whisper's window: 30 s at 16 kHz. */
const WHISPER_MAX_SAMPLES = 30 * 16_000;

/** After a failed pull or load, prepare() answers the same failure for this long instead of trying again. */
const RETRY_AFTER_MS = 5 * 60_000;

export interface LocalSttOptions {
  model: WhisperModel;
  /** Folder URL holding the model's three files; the sherpa-onnx repository on Hugging Face by default. */
  baseUrl?: string;
  /** Where the files go (`DATA_DIR/models/stt/<model>`). */
  dir: string;
  threads: number;
  log: PullLog & { error(msg: string): void };
  /** Download tuning, for tests. */
  pull?: { attempts?: number; stallMs?: number; retryDelayMs?: number };
}

type State =
  | { kind: 'idle' }
  | { kind: 'loading'; progress: number | null }
  | { kind: 'ready'; recognizer: SherpaOfflineRecognizer }
  | { kind: 'failed'; reason: string; at: number };

/** The files of a model: encoder, decoder and tokens, each a plain download. */
export function whisperFiles(model: WhisperModel, baseUrl?: string): ModelFile[] {
  const { repository, prefix } = WHISPER_MODELS[model];
  const base = (baseUrl ?? `https://huggingface.co/${repository}/resolve/main`).replace(/\/+$/, '');
  return [`${prefix}-encoder.int8.onnx`, `${prefix}-decoder.int8.onnx`, `${prefix}-tokens.txt`].map((name) => ({
    url: `${base}/${name}`,
    name,
  }));
}

/**
 * Speech recognition on the server's CPU: Whisper (int8) through sherpa-onnx-node's offline
 * recognizer. The model is pulled into `DATA_DIR/models/stt/<model>` on first use
 * (`prepare()`), with progress in `status()`; without internet it becomes `unavailable`
 * with the reason at once and is not tried again for five minutes. Recognition runs on
 * libuv's thread pool (sherpa's asynchronous decode), one utterance at a time. Whisper
 * detects the language itself (the request's hint is not passed: one recognizer serves
 * every language).
 */
export class LocalSttProvider implements SttProvider {
  readonly name = 'local';
  private state: State = { kind: 'idle' };
  private loading: Promise<void> | null = null;
  private readonly queue = new SerialQueue();
  private readonly closing = new AbortController();
  private readonly files: ModelFile[];
  /** Can the model's host be reached (for a model not pulled yet)? Kept a while, one probe at a time. */
  private readonly hostReachable: CachedCheck<string | null>;

  constructor(private readonly options: LocalSttOptions) {
    this.files = whisperFiles(options.model, options.baseUrl);
    const host = new URL(this.files[0]!.url).origin;
    this.hostReachable = new CachedCheck(
      () => probeHttp(`${host}/`),
      (why) => (why === null ? PROBE_OK_TTL_MS : PROBE_FAILED_TTL_MS),
    );
  }

  status(): SttStatus {
    switch (this.state.kind) {
      case 'ready':
        return { state: 'ready' };
      case 'idle':
        return { state: 'loading', progress: null };
      case 'loading':
        return { state: 'loading', progress: this.state.progress };
      case 'failed':
        return { state: 'unavailable', reason: this.state.reason };
    }
  }

  /**
   * Ready, loading, or its files on disk: yes. A load that failed (files that are not a
   * model) within the last five minutes: no. Files missing: only when their host answers
   * (a HEAD, 3 s at most, kept a minute — 20 s when it failed).
   */
  async availability(mode: 'cached' | 'fresh' = 'cached'): Promise<SttAvailability> {
    const { model, dir } = this.options;
    if (this.state.kind === 'ready' || this.state.kind === 'loading') return { ok: true };
    if (this.state.kind === 'failed' && Date.now() - this.state.at < RETRY_AFTER_MS)
      return { ok: false, reason: 'stt_model_unavailable', detail: this.state.reason };
    if (pulled(dir, this.files)) return { ok: true };
    const why = await this.hostReachable.get(mode);
    if (why === null) return { ok: true };
    return {
      ok: false,
      reason: 'stt_model_unavailable',
      detail:
        `the speech recognition model ${model} is not in ${dir} and cannot be downloaded: ${why}. ` +
        'Place the files there by hand, or use STT_PROVIDER=openai (docs/voice.md)',
    };
  }

  prepare(): Promise<void> {
    if (this.state.kind === 'ready') return Promise.resolve();
    if (this.state.kind === 'failed' && Date.now() - this.state.at < RETRY_AFTER_MS)
      return Promise.reject(new SttError('stt_unavailable', this.state.reason, this.name));
    this.loading ??= this.load().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  async transcribe({ pcm, sampleRate, signal }: TranscriptionRequest): Promise<{ text: string }> {
    if (signal?.aborted) throw new SttError('aborted', 'the recognition was cancelled', this.name);
    if (this.state.kind !== 'ready') {
      // Starts the pull if nobody has; the caller hears that it is not ready yet.
      this.prepare().catch(() => undefined);
      const status = this.status();
      throw new SttError(
        'stt_unavailable',
        status.state === 'unavailable'
          ? status.reason
          : `the local speech recognition model is still loading${
              status.state === 'loading' && status.progress !== null ? ` (${Math.round(status.progress * 100)}%)` : ''
            }`,
        this.name,
      );
    }
    const recognizer = this.state.recognizer;
    const at16k = sampleRate === 16_000 ? pcm : resample(pcm, sampleRate, 16_000);
    // Whisper hears 30 s windows: a longer utterance keeps its first 30 s (a turn ends by 30 s anyway).
    const samples = pcm16ToFloat(at16k.subarray(0, WHISPER_MAX_SAMPLES));
    const work = this.queue.run(async () => {
      if (signal?.aborted) throw new SttError('aborted', 'the recognition was cancelled', this.name);
      const stream = recognizer.createStream();
      stream.acceptWaveform({ samples, sampleRate: 16_000 });
      const result = await recognizer.decodeAsync(stream);
      return { text: (result.text ?? '').trim() };
    });
    if (!signal) return this.wrap(work);
    // The native decode cannot be interrupted: an abort answers at once and its result is dropped.
    return Promise.race([
      this.wrap(work),
      new Promise<never>((_, reject) =>
        signal.addEventListener(
          'abort',
          () => reject(new SttError('aborted', 'the recognition was cancelled', this.name)),
          {
            once: true,
          },
        ),
      ),
    ]);
  }

  async close(): Promise<void> {
    this.closing.abort();
    await this.loading?.catch(() => undefined);
  }

  private async wrap<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (error) {
      if (error instanceof SttError) throw error;
      throw new SttError('provider_error', `local recognition failed: ${message(error)}`, this.name, { cause: error });
    }
  }

  private async load(): Promise<void> {
    const { model, dir, log } = this.options;
    const files = this.files;
    this.state = { kind: 'loading', progress: null };
    const logProgress = progressLogger(log, `the speech recognition model ${model}`);
    let paths: string[];
    try {
      paths = await pullFiles(dir, files, {
        signal: this.closing.signal,
        log,
        label: `the speech recognition model ${model}`,
        ...this.options.pull,
        onProgress: (fraction, detail) => {
          if (this.state.kind === 'loading') this.state = { kind: 'loading', progress: fraction };
          logProgress(fraction, detail);
        },
      });
    } catch (error) {
      return this.fail(
        `cannot download the speech recognition model ${model} into ${dir}: ${message(error)}. ` +
          'Check that the server can reach the internet, place the files there by hand, or use STT_PROVIDER=openai (docs/voice.md)',
      );
    }
    const [encoder, decoder, tokens] = paths as [string, string, string];
    try {
      const sherpa = loadSherpaOnnx();
      const recognizer = await sherpa.OfflineRecognizer.createAsync({
        featConfig: { sampleRate: 16_000, featureDim: 80 },
        modelConfig: {
          whisper: { encoder, decoder, language: '', task: 'transcribe', tailPaddings: -1 },
          tokens,
          numThreads: this.options.threads,
          provider: 'cpu',
          debug: 0,
        },
      });
      this.state = { kind: 'ready', recognizer };
      log.info(`speech recognition ready: ${model} (${path.basename(dir)})`);
    } catch (error) {
      return this.fail(
        `cannot load the speech recognition model ${model} from ${dir}: ${message(error)}. ` +
          'Delete the folder to download it again (docs/voice.md)',
      );
    }
  }

  private fail(reason: string): never {
    this.state = { kind: 'failed', reason, at: Date.now() };
    this.options.log.error(reason);
    throw new SttError('stt_unavailable', reason, this.name);
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0]! : String(error);
}

/** STT_PROVIDER=local: the model STT_LOCAL_MODEL, pulled into DATA_DIR/models/stt on first use. */
export function createLocalSttProvider(
  config: Pick<Config, 'STT_LOCAL_MODEL' | 'STT_LOCAL_MODEL_URL' | 'SPEECH_THREADS' | 'dataDir'>,
  log: LocalSttOptions['log'],
): LocalSttProvider {
  return new LocalSttProvider({
    model: config.STT_LOCAL_MODEL,
    baseUrl: config.STT_LOCAL_MODEL_URL,
    dir: path.join(config.dataDir, 'models', 'stt', config.STT_LOCAL_MODEL),
    threads: config.SPEECH_THREADS,
    log,
  });
}
