import { Redis } from 'ioredis';

/**
 * A Redis connection of its own for short commands (`REDIS_URL`): the limits' counters and the
 * shared cache. A command fails after one reconnection attempt or a second, so that the caller
 * can take its failure mode; `onError` hears the client's errors. Closed once, politely first.
 */
export class RedisCommands {
  protected readonly client: Redis;
  private closed = false;

  constructor(url: string, onError: (error: unknown) => void = () => {}) {
    this.client = new Redis(url, { maxRetriesPerRequest: 1, commandTimeout: 1000 });
    this.client.on('error', onError);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.client.quit().catch(() => undefined);
    this.client.disconnect();
  }
}
