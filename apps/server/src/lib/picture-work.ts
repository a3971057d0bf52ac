import os from 'node:os';
import sharp from 'sharp';
import { AppError } from './errors.js';

/** What a client is told to wait when the queue is full. */
const RETRY_AFTER_S = 5;

/**
 * The picture work of one process (decoding, judging, re-encoding an upload; drawing an
 * avatar): at most `concurrency` at once — sharp runs them in libuv's thread pool, off the
 * event loop, each with its share of the cores (`sharp.concurrency`) — and at most `maxQueue`
 * waiting; past that an upload is answered 503 `uploads_busy` with Retry-After, before its body
 * is read when possible (`refuseWhenFull`). Per process: each replica protects its own
 * event loop and memory (IMAGE_CONCURRENCY, IMAGE_QUEUE).
 */
export class PictureWork {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly maxQueue: number,
  ) {
    // libvips threads per picture: the cores shared among the pictures at work.
    sharp.concurrency(Math.max(1, Math.floor(os.availableParallelism() / concurrency)));
    // sharp's operation cache keeps decoded inputs: uploads are never the same twice.
    sharp.cache(false);
  }

  /** True when a new picture would be refused. */
  get full(): boolean {
    return this.active >= this.concurrency && this.waiting.length >= this.maxQueue;
  }

  /** 503 `uploads_busy` with Retry-After when the queue is full. */
  refuseWhenFull(): void {
    if (this.full)
      throw new AppError('uploads_busy', { status: 503, headers: { 'retry-after': String(RETRY_AFTER_S) } });
  }

  /** Runs `work` when a slot is free (503 when the queue is full). */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.concurrency) {
      this.refuseWhenFull();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else this.active++;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      // The slot passes to the next in line, or is freed.
      if (next) next();
      else this.active--;
    }
  }
}
