import { randomBytes } from 'node:crypto';
import { DEFAULT_LOCALE, MessageKind, toLocale, type AudioResponse, type Locale } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { MediaUrls } from '../../lib/media-urls.js';
import type { ServiceLog } from '../../lib/logger.js';
import type { MediaStorage } from '../../providers/storage/storage.js';
import type { JobQueue } from '../../providers/jobs/index.js';
import { TtsError, type TtsProvider } from '../../providers/tts/index.js';
import type { BillingService } from '../billing/index.js';
import {
  claimAudioJob,
  findOwnedMessageForAudio,
  finishAudioJob,
  releaseAudioJob,
  takeAudioError,
} from './audio.repository.js';
import { detectLanguage } from './language.js';
import { encodeMp3, readMp3Info } from '../../providers/tts/mp3.js';
import { isSpeakable, speechText } from './speech-text.js';

export interface AudioServiceDeps {
  db: Database;
  storage: MediaStorage;
  urls: MediaUrls;
  tts: TtsProvider;
  log: Pick<ServiceLog, 'info' | 'warn'>;
  /** How long one voice message may take (then `error`). */
  timeoutMs: number;
  /** Voice messages synthesised at once. */
  concurrency: number;
  /** MP3 bit rate for PCM from the provider. */
  mp3Kbps: number;
  /** The billing module: voice messages are premium. */
  billing: Pick<BillingService, 'hasPremium'>;
  /** The durable job queue (providers/jobs); null only where nothing is queued (the benchmark calls `synthesise`). */
  jobs: JobQueue | null;
  /** Attempts after the first (TTS_RETRIES). */
  retries?: number;
  /** Seconds before the first retry, doubled each time (TTS_RETRY_DELAY_S). */
  retryDelayS?: number;
}

/** The voice jobs' queue; one job per message (singleton key = the message's id). */
export const VOICE_QUEUE = 'voice';

/** A voice job: ids only — the text and the voice are read when it runs. */
interface VoiceJob {
  messageId: string;
  userId: string;
  /** The asking request's language, the fallback of language detection. */
  locale: Locale;
}

/**
 * How long a voice message probably takes, from being asked to being stored: the job's pickup
 * and, per character, the synthesis and encoding (espeak-ng in process: ≈ 0.15 s a sentence
 * once warm, 0.5–1.5 s for the first; remote providers: a network round trip and their own
 * synthesis). Only the progress shown to the user rests on it.
 */
export function expectedVoiceMs(provider: string, characters: number): number {
  return provider === 'espeak' ? 1500 + characters * 3 : 2500 + characters * 15;
}

/** The progress shown while processing: the share of the expected time gone by, at most 0.95. */
export function estimateVoiceProgress(elapsedMs: number, expectedMs: number): number {
  if (!(elapsedMs > 0)) return 0;
  return Math.min(0.95, Math.round((elapsedMs / expectedMs) * 100) / 100);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What one finished job measured (the benchmark and the logs use it). */
export interface AudioJobResult {
  key: string;
  language: Locale;
  bytes: number;
  durationS: number;
  synthesisMs: number;
  encodeMs: number;
}

/**
 * Voice messages (issue 7, docs/voice.md): `request` answers `POST /api/audio/{id}` and
 * starts a background job the first time; the job synthesises the message in its
 * language with the character's voice, encodes MP3 and stores it under
 * `chats/<user id>/voice-<random>.mp3` (served to the owner, or with a signed URL).
 */
export class AudioService {
  constructor(private readonly deps: AudioServiceDeps) {
    // Any replica runs any message's job; a job whose replica died is retried by another after
    // its expiry (the synthesis time limit plus time to encode and store).
    deps.jobs?.work<VoiceJob>(VOICE_QUEUE, (job, signal) => this.runJob(job, signal), {
      concurrency: deps.concurrency,
      retryLimit: deps.retries ?? 2,
      retryDelaySeconds: deps.retryDelayS ?? 5,
      retryBackoff: true,
      expireInSeconds: Math.ceil(deps.timeoutMs / 1000) + 10,
      onFailed: (job) => this.failJob(job),
    });
  }

  /** Resolves when no voice job is queued or running, on any replica (tests). */
  idle(): Promise<void> {
    return this.deps.jobs?.idle([VOICE_QUEUE]) ?? Promise.resolve();
  }

  /** `POST /api/audio/{id}`: the state of the message's voice, starting the job when needed. */
  async request(userId: string, messageId: string, requestLocale: string): Promise<AudioResponse> {
    const { db, urls } = this.deps;
    if (!(await this.deps.billing.hasPremium(userId))) {
      throw new AppError('premium_required', { status: 402 });
    }
    if (!UUID.test(messageId)) throw notFound();
    const message = await findOwnedMessageForAudio(db, messageId, userId);
    if (!message) throw notFound();
    if (
      message.role !== 'bot' ||
      message.kind !== MessageKind.Text ||
      (message.state !== 'done' && message.state !== 'stopped') ||
      !isSpeakable(speechText(message.text))
    ) {
      throw new AppError('voice_unavailable', { status: 409 });
    }
    if (message.audioState === 'ready' && message.audioKey) {
      return { state: 'ready', audio_url: urls.url(message.audioKey, { signed: true }) };
    }
    if (message.audioState === 'error' && (await takeAudioError(db, messageId, userId))) {
      return { state: 'error', audio_url: null };
    }
    // Not asked yet, or asked so long ago that its job may have been lost (a row left
    // `processing` by a version without the durable queue): claim it (one request wins). The
    // job is added once per message: a claim while a job is still queued or running adds none.
    const staleBefore = new Date(Date.now() - this.deps.timeoutMs - 60_000);
    const claimed = await claimAudioJob(db, messageId, userId, staleBefore);
    if (claimed) {
      const locale = toLocale(requestLocale) ?? DEFAULT_LOCALE;
      try {
        if (!this.deps.jobs) throw new Error('no job queue');
        await this.deps.jobs.send<VoiceJob>(VOICE_QUEUE, { messageId, userId, locale }, { singletonKey: messageId });
      } catch (error) {
        // Shutting down, or the database failed: the message is "not asked" again.
        this.deps.log.warn({ err: error, messageId }, 'voice job could not be queued');
        await releaseAudioJob(db, messageId).catch(() => undefined);
        throw new AppError('service_unavailable', { status: 503 });
      }
    }
    // Asked at the row's last change (the claim); a new claim starts at 0.
    const elapsed = claimed || message.audioState !== 'processing' ? 0 : Date.now() - message.updatedAt.getTime();
    const expected = expectedVoiceMs(this.deps.tts.name, speechText(message.text).length);
    return { state: 'processing', audio_url: null, progress: estimateVoiceProgress(elapsed, expected) };
  }

  /** One attempt: a throw (or the signal: expiry, shutdown) is retried while retries are left. */
  private async runJob(job: VoiceJob, signal: AbortSignal): Promise<void> {
    const { db, storage, log } = this.deps;
    const message = await findOwnedMessageForAudio(db, job.messageId, job.userId);
    // Deleted, or no longer waiting for its voice: nothing to do.
    if (!message || message.audioState !== 'processing') return;
    try {
      const result = await this.synthesise(message.text, message.voice, job.locale, signal, job.userId);
      if (!(await finishAudioJob(db, job.messageId, { state: 'ready', key: result.key }))) {
        // The message was deleted or reset meanwhile: do not leave the file behind.
        await storage.delete(result.key).catch(() => undefined);
      }
    } catch (error) {
      const code = error instanceof TtsError ? error.code : 'internal_error';
      log.warn({ err: error, provider: this.deps.tts.name, code, messageId: job.messageId }, 'voice message failed');
      throw error;
    }
  }

  /** The job failed for good (its last attempt threw or its replica died): the row says `error`. */
  private async failJob(job: VoiceJob): Promise<void> {
    await finishAudioJob(this.deps.db, job.messageId, { state: 'error' });
  }

  /**
   * One voice message: detect the language, synthesise (bounded by the time limit), encode
   * PCM as MP3 (a provider's MP3 is checked frame by frame), store. Exposed for the benchmark.
   */
  async synthesise(
    text: string,
    voice: string,
    locale: Locale,
    shutdown: AbortSignal | undefined,
    ownerId: string,
  ): Promise<AudioJobResult> {
    const { tts, storage, timeoutMs, mp3Kbps } = this.deps;
    const spoken = speechText(text);
    const language = detectLanguage(spoken, locale);
    // A timer the event loop holds (not AbortSignal.timeout/any, whose signals Node may collect
    // while a provider that holds no socket waits on them: the job would never end).
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new DOMException('The speech took too long', 'TimeoutError')),
      timeoutMs,
    );
    const onShutdown = () => controller.abort(shutdown?.reason);
    if (shutdown?.aborted) onShutdown();
    else shutdown?.addEventListener('abort', onShutdown, { once: true });
    const signal = controller.signal;
    const started = performance.now();
    let speech: Awaited<ReturnType<typeof tts.synthesise>>;
    let data: Buffer;
    let synthesised: number;
    try {
      speech = await tts.synthesise({ text: spoken, voice, language, signal });
      synthesised = performance.now();
      data =
        speech.format === 'pcm16' ? await encodeMp3(speech.samples, speech.sampleRate, mp3Kbps, signal) : speech.data;
    } finally {
      clearTimeout(timer);
      shutdown?.removeEventListener('abort', onShutdown);
    }
    const info = readMp3Info(data);
    if (!info || info.durationS <= 0) {
      throw new TtsError('empty_output', 'the provider did not answer playable MP3 audio', tts.name);
    }
    const key = `chats/${ownerId}/voice-${randomBytes(16).toString('hex')}.mp3`;
    await storage.put(key, data, 'audio/mpeg');
    return {
      key,
      language,
      bytes: data.length,
      durationS: info.durationS,
      synthesisMs: synthesised - started,
      encodeMs: performance.now() - synthesised,
    };
  }
}
