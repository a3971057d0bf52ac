import { Worker, type TransferListItem } from 'node:worker_threads';

/** A worker's answer to one request: `id` is the request's. */
export interface WorkerAnswer {
  id: number;
  ok: boolean;
}

/**
 * One worker thread per process for CPU work kept off the event loop (`url`: a plain JavaScript
 * module beside its caller in the sources, beside `server.js` in the bundle), started on first
 * use and restarted if it dies; requests are numbered and wait their turn in it. Idle, it never
 * keeps the process alive. A request given a signal is abortable: its promise rejects at once
 * and the worker is told `{id, type: 'cancel'}`. Used by the voice engine (`providers/tts/
 * audio-thread.ts`) and the style engine (`modules/transforms/styles/cel-thread.ts`).
 */
export class WorkerThread<Answer extends WorkerAnswer> {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (a: Answer) => void; reject: (e: Error) => void }>();

  constructor(
    private readonly url: URL,
    private readonly name: string,
  ) {}

  private start(): Worker {
    if (this.worker) return this.worker;
    // Plain JavaScript: none of the parent's flags (a TypeScript loader, --input-type…) apply.
    const worker = new Worker(this.url, { execArgv: [] });
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
    worker.on('exit', (code) => fail(new Error(`the ${this.name} worker stopped (exit code ${code})`)));
    // Idle, the thread never keeps the process alive (unref after the listeners, which ref it).
    worker.unref();
    this.worker = worker;
    return worker;
  }

  /** Sends `{id, ...message}` (handing `transfer` over, not copying it) and waits for its answer. */
  async request(
    message: object,
    options: { transfer?: readonly TransferListItem[]; signal?: AbortSignal } = {},
  ): Promise<Answer> {
    const { signal, transfer } = options;
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
      return await new Promise<Answer>((resolve, reject) => {
        this.pending.set(id, { resolve, reject });
        worker.ref(); // while work is pending, the process waits for it
        signal?.addEventListener('abort', onAbort, { once: true });
        worker.postMessage({ id, ...message }, transfer);
      });
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (this.pending.size === 0) worker.unref();
    }
  }
}
