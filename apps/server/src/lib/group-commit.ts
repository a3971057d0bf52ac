/**
 * Group commit: writes that many requests make at about the same moment (the final saves of
 * replies, the fair-use counts) go to the database as ONE statement for all of them instead
 * of one statement each. Each `push` answers its own item's result once the statement that
 * carried it has finished, so a caller waits exactly as long as its write takes to be durable —
 * nothing is acknowledged before the database has it.
 *
 * Batching: the first item waits one turn of the event loop (`setImmediate`) for the others of
 * the same turn; while a statement is in flight, new items line up and go together in the next
 * one, which starts as soon as the previous one ends (at most `maxInFlight` statements at once,
 * at most `maxBatch` items each). When nothing else is waiting this adds one event-loop turn.
 *
 * A failed batch of several items is retried item by item (`write([item])`), so one bad item
 * (e.g. a violated constraint) fails only its own caller. `flush()` answers once everything
 * pushed so far has been written (shutdown).
 */
export class GroupCommit<T, R> {
  private waiting: { item: T; resolve: (result: R) => void; reject: (error: unknown) => void }[] = [];
  private scheduled = false;
  private inFlight = 0;
  private readonly idleWaiters: (() => void)[] = [];

  constructor(
    /** Writes the items in one statement; answers one result per item, in the same order. */
    private readonly write: (items: T[]) => Promise<R[]>,
    private readonly options: { maxBatch?: number; maxInFlight?: number } = {},
  ) {}

  /** How many items wait for a statement (for tests and metrics). */
  get pending(): number {
    return this.waiting.length;
  }

  push(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.waiting.length === 0) return;
    if (this.inFlight >= (this.options.maxInFlight ?? 2)) return; // the statement that ends next takes them
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.startBatch();
    });
  }

  private startBatch(): void {
    const max = this.options.maxBatch ?? 200;
    while (this.waiting.length > 0 && this.inFlight < (this.options.maxInFlight ?? 2)) {
      const batch = this.waiting.splice(0, max);
      this.inFlight++;
      void this.run(batch).finally(() => {
        this.inFlight--;
        if (this.waiting.length > 0) this.schedule();
        else if (this.inFlight === 0) for (const wake of this.idleWaiters.splice(0)) wake();
      });
    }
  }

  private async run(batch: typeof this.waiting): Promise<void> {
    try {
      const results = await this.write(batch.map((entry) => entry.item));
      batch.forEach((entry, i) => entry.resolve(results[i]!));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      // One item may be the cause: each one alone, so that only its own caller fails.
      await Promise.all(
        batch.map((entry) =>
          this.write([entry.item]).then(
            (results) => entry.resolve(results[0]!),
            (reason: unknown) => entry.reject(reason),
          ),
        ),
      );
    }
  }

  /**
   * Answers once the queue is idle: every item pushed so far written (or failed), nothing in
   * flight (at shutdown, once nothing pushes any more, that is at once after the last one).
   */
  async flush(): Promise<void> {
    if (this.waiting.length === 0 && this.inFlight === 0) return;
    if (!this.scheduled) this.startBatch();
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }
}
