import { Worker } from 'node:worker_threads';

/** A face the detector found: its box in the judged picture's pixels, estimated age, detection score. */
export interface JudgedFace {
  box: { x: number; y: number; width: number; height: number };
  age: number;
  score: number;
}

/** nsfwjs's five scores (they sum to 1). */
export interface NudityScores {
  drawing: number;
  hentai: number;
  neutral: number;
  porn: number;
  sexy: number;
}

export interface PixelJudgement {
  faces: JudgedFace[];
  nudity: NudityScores;
}

interface Answer {
  id: number;
  ok: boolean;
  result?: PixelJudgement;
  loadMs?: number;
  message?: string;
}

type Job =
  { type: 'warm' } | { type: 'judge'; pixels: Uint8Array; width: number; height: number; minFaceScore: number };

/**
 * The worker file: beside this module in the sources, beside `server.js` in the bundle
 * (`build.mjs` copies it and `models.mjs` there).
 */
const WORKER_URL = new URL('./judge-worker.mjs', import.meta.url);

export class JudgeTimeoutError extends Error {}

/**
 * One warm worker thread for the picture models (`judge-worker.mjs`): started on first use
 * (or by `warm()`), jobs queued and run one at a time, each with a time limit; a worker that
 * dies or overruns is ended and the next job starts a new one (the models load again).
 */
export class JudgeThread {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (a: Answer) => void; reject: (e: Error) => void }>();
  /** The queue: each job starts when the one before it has settled. */
  private tail: Promise<unknown> = Promise.resolve();
  private queued = 0;
  /** How long the models took to load in the current worker (ms), once known. */
  loadMs: number | null = null;
  /** Workers started so far (the first, then one per restart). */
  starts = 0;

  constructor(
    private readonly options: {
      timeoutMs: number;
      /** Jobs waiting beyond this are refused at once (the caller answers 503). */
      maxQueue?: number;
      onExit?: (reason: string) => void;
    },
  ) {}

  private start(): Worker {
    if (this.worker) return this.worker;
    // Plain JavaScript: none of the parent's flags (a TypeScript loader, --input-type…) apply.
    const worker = new Worker(WORKER_URL, { execArgv: [] });
    this.starts++;
    this.loadMs = null;
    worker.on('message', (answer: Answer) => {
      const waiting = this.pending.get(answer.id);
      this.pending.delete(answer.id);
      if (answer.loadMs) this.loadMs = answer.loadMs;
      waiting?.resolve(answer);
    });
    const fail = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
      this.options.onExit?.(error.message);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the picture judge's worker stopped (exit code ${code})`)));
    // Idle, the thread never keeps the process alive (unref after the listeners, which ref it).
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private run(job: Job): Promise<Answer> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<Answer>((resolve, reject) => {
      const timer = setTimeout(() => {
        // A job that overruns takes its worker with it: the next job starts a fresh one.
        this.pending.delete(id);
        reject(new JudgeTimeoutError(`the picture judge took longer than ${this.options.timeoutMs} ms`));
        void this.kill();
      }, this.options.timeoutMs);
      timer.unref();
      this.pending.set(id, {
        resolve: (answer) => {
          clearTimeout(timer);
          resolve(answer);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      worker.ref(); // while work is pending, the process waits for it
      const transfer = job.type === 'judge' ? [job.pixels.buffer as ArrayBuffer] : [];
      worker.postMessage({ id, ...job }, transfer);
    }).finally(() => {
      if (this.pending.size === 0) this.worker?.unref();
    });
  }

  private enqueue(job: Job): Promise<Answer> {
    if (this.options.maxQueue !== undefined && this.queued >= this.options.maxQueue) {
      return Promise.reject(new Error('the picture judge is busy'));
    }
    this.queued++;
    const result = this.tail.then(() => this.run(job));
    this.tail = result.catch(() => {}).finally(() => this.queued--);
    return result;
  }

  /** Starts the worker and loads the models (at start, in the background). */
  async warm(): Promise<void> {
    const answer = await this.enqueue({ type: 'warm' });
    if (!answer.ok) throw new Error(answer.message ?? 'the picture models did not load');
  }

  /** Judges raw RGB pixels (`width × height × 3` bytes; the buffer is moved to the worker). */
  async judge(pixels: Uint8Array, width: number, height: number, minFaceScore: number): Promise<PixelJudgement> {
    const answer = await this.enqueue({ type: 'judge', pixels, width, height, minFaceScore });
    if (!answer.ok || !answer.result) throw new Error(answer.message ?? 'the picture judge failed');
    return answer.result;
  }

  /** Ends the worker now (shutdown; tests use it to kill it); the next job starts a new one. */
  async kill(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    await worker.terminate();
  }
}
