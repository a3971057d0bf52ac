import { Redis } from 'ioredis';
import type { SharedCache } from './shared-cache.js';

/** The cache in Redis (`REDIS_URL`; keys `reverie:cache:…`, each with its own expiry). */
export class RedisCache implements SharedCache {
  readonly kind = 'redis' as const;
  private readonly client: Redis;
  private closed = false;

  constructor(
    url: string,
    onError: (error: unknown) => void = () => {},
    private readonly prefix = 'reverie:cache:',
  ) {
    this.client = new Redis(url, { maxRetriesPerRequest: 1, commandTimeout: 1000 });
    this.client.on('error', onError);
  }

  get(key: string): Promise<string | null> {
    return this.client.get(this.prefix + key);
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.client.set(this.prefix + key, value, 'PX', Math.max(1, Math.ceil(ttlMs)));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.client.quit().catch(() => undefined);
    this.client.disconnect();
  }
}
