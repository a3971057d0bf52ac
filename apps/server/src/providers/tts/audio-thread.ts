import { WorkerThread } from '../../lib/worker-thread.js';
import { TtsError, type TtsErrorCode } from './tts-provider.js';

type Request =
  | { type: 'speak'; pieces: string[]; voice: string; fallbackVoice: string }
  | { type: 'mp3'; samples: Int16Array; sampleRate: number; kbps: number };

interface Answer {
  id: number;
  ok: boolean;
  samples?: Int16Array;
  data?: Uint8Array;
  code?: TtsErrorCode;
  message?: string;
}

/**
 * The worker file: beside this module in the sources, beside `server.js` in the bundle
 * (`build.mjs` copies it there).
 */
const WORKER_URL = new URL('./audio-worker.mjs', import.meta.url);

/** One worker thread per process for espeak-ng and MP3 encoding (`audio-worker.mjs`), abortable. */
const worker = new WorkerThread<Answer>(WORKER_URL, 'audio');

export const audioThread = {
  async call(request: Request, provider: string, signal?: AbortSignal): Promise<Answer> {
    const answer = await worker.request(request, { signal });
    if (!answer.ok) throw new TtsError(answer.code ?? 'provider_error', answer.message ?? 'failed', provider);
    return answer;
  },
};
