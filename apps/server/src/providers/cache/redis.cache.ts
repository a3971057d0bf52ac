import { RedisCommands } from '../redis-commands.js';
import type { SharedCache } from './shared-cache.js';

/** The cache in Redis (`REDIS_URL`; keys `reverie:cache:…`, each with its own expiry). */
export class RedisCache extends RedisCommands implements SharedCache {
  readonly kind = 'redis' as const;

  constructor(
    url: string,
    onError: (error: unknown) => void = () => {},
    private readonly prefix = 'reverie:cache:',
  ) {
    super(url, onError);
  }

  get(key: string): Promise<string | null> {
    return this.client.get(this.prefix + key);
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.client.set(this.prefix + key, value, 'PX', Math.max(1, Math.ceil(ttlMs)));
  }
}
