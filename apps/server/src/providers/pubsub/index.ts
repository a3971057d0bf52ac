import type { DatabaseHandle } from '../../db/client.js';
import { MemoryPubSub } from './memory.provider.js';
import { PostgresPubSub } from './postgres.provider.js';
import type { PubSub } from './pubsub.provider.js';
import { RedisPubSub } from './redis.provider.js';

export type { PubSub, PubSubHandler } from './pubsub.provider.js';
export { MemoryPubSub } from './memory.provider.js';
export { PostgresPubSub } from './postgres.provider.js';
export { RedisPubSub } from './redis.provider.js';

/**
 * Redis when `REDIS_URL` is set; otherwise LISTEN/NOTIFY on a PostgreSQL server; in process
 * on PGlite (one process only).
 */
export function createPubSub(
  settings: { REDIS_URL?: string },
  database: Pick<DatabaseHandle, 'raw'>,
  onError: (error: unknown) => void = () => {},
): PubSub {
  if (settings.REDIS_URL) return new RedisPubSub(settings.REDIS_URL, onError);
  if (database.raw.kind === 'postgres') return new PostgresPubSub(database.raw.url, onError);
  return new MemoryPubSub(onError);
}
