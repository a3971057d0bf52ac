import type { Locale } from '@reverie/shared';
import { wavFile } from '../../lib/pcm.js';
import { CachedCheck, PROBE_FAILED_TTL_MS, PROBE_OK_TTL_MS, probeHttp, type SttAvailability } from './availability.js';
import {
  SttError,
  type SttProvider,
  type SttStatus,
  type Transcription,
  type TranscriptionRequest,
} from './stt-provider.js';

/** The interface languages as ISO-639-1 codes (`ch` is Chinese). */
const ISO_639_1: Record<Locale, string> = { en: 'en', ch: 'zh', es: 'es', de: 'de', ru: 'ru' };

export interface OpenAiSttOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
}

/**
 * Any OpenAI-compatible `POST {base}/audio/transcriptions` (OpenAI, Groq, a local
 * faster-whisper or whisper.cpp server…): the utterance as a WAV file in a multipart form,
 * answered as JSON `{ text }`.
 */
export class OpenAiSttProvider implements SttProvider {
  readonly name = 'openai';
  private readonly base: string;
  /** Does the endpoint answer at all (a HEAD of the transcription route; any status below 500)? */
  private readonly answering: CachedCheck<string | null>;

  constructor(private readonly options: OpenAiSttOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.answering = new CachedCheck(
      () => probeHttp(`${this.base}/audio/transcriptions`),
      (why) => (why === null ? PROBE_OK_TTL_MS : PROBE_FAILED_TTL_MS),
    );
  }

  status(): SttStatus {
    return { state: 'ready' };
  }

  async availability(mode: 'cached' | 'fresh' = 'cached'): Promise<SttAvailability> {
    const why = await this.answering.get(mode);
    return why === null
      ? { ok: true }
      : { ok: false, reason: 'stt_provider_unreachable', detail: `the speech recognition provider: ${why}` };
  }

  async prepare(): Promise<void> {}

  async transcribe({ pcm, sampleRate, language, signal }: TranscriptionRequest): Promise<Transcription> {
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new DOMException('the transcription took too long', 'TimeoutError')),
      this.options.timeoutMs,
    );
    const onAbort = () => controller.abort(signal?.reason);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const form = new FormData();
      form.append('file', new Blob([wavFile(pcm, sampleRate)], { type: 'audio/wav' }), 'speech.wav');
      form.append('model', this.options.model);
      form.append('response_format', 'json');
      if (language) form.append('language', ISO_639_1[language]);
      const response = await fetch(`${this.base}/audio/transcriptions`, {
        method: 'POST',
        headers: this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {},
        body: form,
        signal: controller.signal,
      });
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        throw new SttError('provider_error', `audio/transcriptions answered ${response.status}`, this.name);
      }
      const body = (await response.json().catch(() => null)) as { text?: unknown } | null;
      if (!body || typeof body.text !== 'string')
        throw new SttError('provider_error', 'audio/transcriptions answered no text', this.name);
      return { text: body.text.trim() };
    } catch (error) {
      if (error instanceof SttError) throw error;
      if (controller.signal.aborted) {
        const reason = controller.signal.reason as { name?: string } | undefined;
        throw reason?.name === 'TimeoutError'
          ? new SttError('timeout', 'the transcription took too long', this.name, { cause: error })
          : new SttError('aborted', 'the transcription was cancelled', this.name, { cause: error });
      }
      throw new SttError('provider_error', error instanceof Error ? error.message : String(error), this.name, {
        cause: error,
      });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}
