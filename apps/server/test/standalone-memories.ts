import type { Database } from '../src/db/client.js';
import { MemoriesService, type MemoriesServiceDeps } from '../src/modules/memories/memories.service.js';

/**
 * The memories service on its own, for the tests and benchmarks that call it directly: no
 * model (unless `options.llm` gives one that embeds), no characters, no moderation, no write
 * limit and a silent log. `options` sets or overrides any other dependency (`now`, `embedWaitMs`).
 */
export function standaloneMemories(db: Database, options: Partial<Omit<MemoriesServiceDeps, 'db'>> = {}) {
  return new MemoriesService({
    db,
    llm: {},
    log: { warn: () => undefined, error: () => undefined, info: () => undefined },
    bots: {
      findVisibleBotById: async () => null,
      findVisibleBotBySlug: async () => null,
      findBotById: async () => null,
    },
    moderation: null,
    writes: { take: async () => 0 },
    ...options,
  });
}
