/**
 * A key–value cache shared by every replica (docs/ARCHITECTURE.md "Shared cache"): answers
 * that many requests would otherwise compute again (the guest catalogue's pages). Values are
 * strings (the caller serialises); each key expires after its own time. A cache is never the
 * truth: a lost entry is computed again.
 */
export interface SharedCache {
  readonly kind: 'redis' | 'postgres' | 'memory';
  /** The value, or null when missing or expired. */
  get(key: string): Promise<string | null>;
  /** Stores a value for `ttlMs`. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  close(): Promise<void>;
}
