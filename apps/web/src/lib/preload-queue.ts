import { ROUTE_PRELOAD_CONCURRENCY } from '@reverie/shared';

/**
 * Runs preload tasks with at most `concurrency` at once (spec §9: 4), first come first
 * served; the same key is loaded only once.
 */
export class PreloadQueue {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly started = new Map<string, Promise<unknown>>();

  constructor(private readonly concurrency = ROUTE_PRELOAD_CONCURRENCY) {}

  get running(): number {
    return this.active;
  }

  add<T>(key: string, task: () => Promise<T>): Promise<T> {
    const existing = this.started.get(key);
    if (existing) return existing as Promise<T>;
    const run = new Promise<T>((resolve, reject) => {
      const start = () => {
        this.active += 1;
        task()
          .then(resolve, reject)
          .finally(() => {
            this.active -= 1;
            this.waiting.shift()?.();
          });
      };
      if (this.active < this.concurrency) start();
      else this.waiting.push(start);
    });
    this.started.set(key, run);
    run.catch(() => this.started.delete(key));
    return run;
  }
}

export const routePreloads = new PreloadQueue();
