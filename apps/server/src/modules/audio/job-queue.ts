/**
 * A small in-process job queue: at most `concurrency` jobs run at once, the others wait in
 * line; a job id already queued or running is not added twice. `close()` aborts running
 * jobs and drops waiting ones (their rows are reset on the next start).
 */
export class JobQueue {
  private readonly waiting: { id: string; run: (signal: AbortSignal) => Promise<void> }[] = [];
  private readonly running = new Map<string, AbortController>();
  private readonly idleWaiters: (() => void)[] = [];
  private closed = false;

  constructor(private readonly concurrency: number) {}

  has(id: string): boolean {
    return this.running.has(id) || this.waiting.some((job) => job.id === id);
  }

  get size(): number {
    return this.running.size + this.waiting.length;
  }

  /** Adds a job; false when the queue is closed or the id is already there. */
  add(id: string, run: (signal: AbortSignal) => Promise<void>): boolean {
    if (this.closed || this.has(id)) return false;
    this.waiting.push({ id, run });
    this.pump();
    return true;
  }

  private pump(): void {
    while (!this.closed && this.running.size < this.concurrency && this.waiting.length) {
      const job = this.waiting.shift()!;
      const controller = new AbortController();
      this.running.set(job.id, controller);
      void job
        .run(controller.signal)
        .catch(() => undefined)
        .finally(() => {
          this.running.delete(job.id);
          this.pump();
          if (this.size === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
        });
    }
  }

  /** Resolves when no job is waiting or running. */
  onIdle(): Promise<void> {
    return this.size === 0 ? Promise.resolve() : new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops: waiting jobs are dropped, running ones aborted; resolves when they have ended. */
  async close(): Promise<void> {
    this.closed = true;
    this.waiting.length = 0;
    for (const controller of this.running.values()) controller.abort(new Error('shutting down'));
    if (this.running.size) await this.onIdle();
  }

  get isClosed(): boolean {
    return this.closed;
  }
}
