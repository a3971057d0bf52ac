import { randomBytes } from 'node:crypto';
import { DEFAULT_LOCALE, MessageKind, toLocale, type AudioResponse, type Locale } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { MediaUrls } from '../../lib/media-urls.js';
import type { MediaStorage } from '../../providers/storage/storage.js';
import { TtsError, type TtsProvider } from '../../providers/tts/index.js';
import { hasPremium } from '../billing/billing.service.js';
import {
  claimAudioJob,
  findOwnedMessageForAudio,
  finishAudioJob,
  resetInterruptedAudio,
  takeAudioError,
} from './audio.repository.js';
import { JobQueue } from './job-queue.js';
import { detectLanguage } from './language.js';
import { encodeMp3, readMp3Info } from './mp3.js';
import { isSpeakable, speechText } from './speech-text.js';

interface Logger {
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
}

export interface AudioServiceDeps {
  db: Database;
  storage: MediaStorage;
  urls: MediaUrls;
  tts: TtsProvider;
  log: Logger;
  /** How long one voice message may take (then `error`). */
  timeoutMs: number;
  /** Voice messages synthesised at once. */
  concurrency: number;
  /** MP3 bit rate for PCM from the provider. */
  mp3Kbps: number;
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
  private readonly queue: JobQueue;

  constructor(private readonly deps: AudioServiceDeps) {
    this.queue = new JobQueue(deps.concurrency);
  }

  /** Run once when the app starts: messages left `processing` by a previous process may be asked again. */
  async recover(): Promise<void> {
    const reset = await resetInterruptedAudio(this.deps.db);
    if (reset) this.deps.log.info({ count: reset }, 'voice messages interrupted by a restart were reset');
  }

  /** Resolves when no voice job is waiting or running (tests, shutdown). */
  idle(): Promise<void> {
    return this.queue.onIdle();
  }

  close(): Promise<void> {
    return this.queue.close();
  }

  /** `POST /api/audio/{id}`: the state of the message's voice, starting the job when needed. */
  async request(userId: string, messageId: string, requestLocale: string): Promise<AudioResponse> {
    const { db, urls } = this.deps;
    if (!(await hasPremium(db, userId))) {
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
    if (message.audioState === 'processing' && this.queue.has(messageId)) {
      return { state: 'processing', audio_url: null };
    }
    // Not asked yet, or a job that no process runs any more: claim it (one request wins).
    const staleBefore = new Date(Date.now() - this.deps.timeoutMs - 60_000);
    if (await claimAudioJob(db, messageId, userId, staleBefore)) {
      const locale = toLocale(requestLocale) ?? DEFAULT_LOCALE;
      const voice = message.voice;
      const text = message.text;
      if (!this.queue.add(messageId, (signal) => this.runJob({ messageId, userId, text, voice, locale }, signal))) {
        // The server is shutting down: leave it for the next start.
        throw new AppError('service_unavailable', { status: 503 });
      }
    }
    return { state: 'processing', audio_url: null };
  }

  private async runJob(
    job: { messageId: string; userId: string; text: string; voice: string; locale: Locale },
    shutdown: AbortSignal,
  ): Promise<void> {
    const { db, storage, log } = this.deps;
    try {
      const result = await this.synthesise(job.text, job.voice, job.locale, shutdown, job.userId);
      if (!(await finishAudioJob(db, job.messageId, { state: 'ready', key: result.key }))) {
        // The message was deleted or reset meanwhile: do not leave the file behind.
        await storage.delete(result.key).catch(() => undefined);
      }
    } catch (error) {
      // Shutting down: the row stays `processing` and is reset on the next start.
      if (shutdown.aborted) return;
      const code = error instanceof TtsError ? error.code : 'internal_error';
      log.warn({ err: error, provider: this.deps.tts.name, code, messageId: job.messageId }, 'voice message failed');
      await finishAudioJob(db, job.messageId, { state: 'error' }).catch(() => undefined);
    }
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
