import type { SharedCache } from './shared-cache.js';

/** Past this many keys, expired ones are dropped on the next write. */
const PRUNE_ABOVE = 5_000;

/** The cache in this process: for PGlite, where the whole site is one process. */
export class MemoryCache implements SharedCache {
  readonly kind = 'memory' as const;
  private readonly entries = new Map<string, { value: string; expiresAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async get(key: string): Promise<string | null> {
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return null;
    }
    return entry.value;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    const now = this.now();
    if (this.entries.size >= PRUNE_ABOVE)
      for (const [k, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(k);
    // Still full of live entries: the oldest written go first.
    while (this.entries.size >= PRUNE_ABOVE) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, expiresAt: now + ttlMs });
  }

  async close(): Promise<void> {}
}
