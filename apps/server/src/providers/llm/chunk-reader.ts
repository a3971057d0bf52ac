import type { Readable } from 'node:stream';

/**
 * Reads a byte stream chunk by chunk through its `data` events. Rather than the stream's async
 * iterator: a model that trickles sends one token per network read, and the iterator costs a
 * `read()`, a tick and a promise of its own per chunk (bench/README.md, issue 25). `next()`
 * answers the next chunk, null at the end, and rejects with the stream's error (or when it
 * closed before its end). A chunk that comes while nobody waits pauses the body until it is
 * read, so nothing is read ahead of the caller (a caller that stops early leaves the rest of
 * the answer unread, as with the iterator).
 */
export class ChunkReader {
  private readonly chunks: Buffer[] = [];
  private head = 0;
  private ended = false;
  private error: Error | null = null;
  private wake: (() => void) | null = null;

  constructor(private readonly body: Readable) {
    body.on('data', (chunk: Buffer) => {
      this.chunks.push(chunk);
      if (this.wake) this.signal();
      else body.pause();
    });
    body.once('end', () => {
      this.ended = true;
      this.signal();
    });
    body.once('error', (error: Error) => this.fail(error));
    body.once('close', () => {
      if (!this.ended) this.fail(new Error('the stream closed before its end'));
    });
  }

  private fail(error: Error): void {
    this.error ??= error;
    this.signal();
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /** The next chunk; null once the stream has ended. */
  async next(): Promise<Buffer | null> {
    for (;;) {
      if (this.head < this.chunks.length) {
        const chunk = this.chunks[this.head]!;
        this.chunks[this.head++] = undefined as never;
        if (this.head === this.chunks.length) {
          this.chunks.length = 0;
          this.head = 0;
        }
        return chunk;
      }
      if (this.error) throw this.error;
      if (this.ended) return null;
      if (this.body.isPaused()) this.body.resume();
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}
