import { Worker } from 'node:worker_threads';
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

/**
 * One worker thread per process for espeak-ng and MP3 encoding (`audio-worker.mjs`),
 * started on first use and restarted if it dies. Requests are abortable: the promise
 * rejects at once and the worker drops the work at its next piece.
 */
class AudioThread {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (a: Answer) => void; reject: (e: Error) => void }>();

  private start(): Worker {
    if (this.worker) return this.worker;
    // Plain JavaScript: none of the parent's flags (a TypeScript loader, --input-type…) apply.
    const worker = new Worker(WORKER_URL, { execArgv: [] });
    worker.on('message', (answer: Answer) => {
      const waiting = this.pending.get(answer.id);
      this.pending.delete(answer.id);
      waiting?.resolve(answer);
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the audio worker stopped (exit code ${code})`)));
    // Idle, the thread never keeps the process alive (unref after the listeners, which ref it).
    worker.unref();
    this.worker = worker;
    return worker;
  }

  async call(request: Request, provider: string, signal?: AbortSignal): Promise<Answer> {
    signal?.throwIfAborted();
    const worker = this.start();
    const id = this.nextId++;
    const onAbort = () => {
      worker.postMessage({ id, type: 'cancel' });
      const waiting = this.pending.get(id);
      this.pending.delete(id);
      waiting?.reject(signal!.reason instanceof Error ? signal!.reason : new Error('aborted'));
    };
    try {
      const answer = await new Promise<Answer>((resolve, reject) => {
        this.pending.set(id, { resolve, reject });
        worker.ref(); // while work is pending, the process waits for it
        signal?.addEventListener('abort', onAbort, { once: true });
        worker.postMessage({ id, ...request });
      });
      if (!answer.ok) throw new TtsError(answer.code ?? 'provider_error', answer.message ?? 'failed', provider);
      return answer;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (this.pending.size === 0) worker.unref();
    }
  }
}

export const audioThread = new AudioThread();
