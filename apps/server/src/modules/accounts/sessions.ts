import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import type { LiveSession } from '../../plugins/auth.js';
import type { PubSub } from '../../providers/pubsub/index.js';
import * as repo from './accounts.repository.js';

/** The pub/sub channel on which every replica hears that sessions ended. */
export const SESSIONS_CHANNEL = 'auth.sessions';
/**
 * How long a replica trusts what it learnt about a session without asking the database.
 * Invalidations normally arrive at once; if pub/sub is down, this bounds how long an ended
 * session keeps working on another replica.
 */
export const SESSION_CACHE_TTL_MS = 20_000;
/** Sessions remembered per process (least recently used ones are forgotten first). */
export const SESSION_CACHE_MAX = 20_000;
/** How long ending a session waits for pub/sub before answering anyway (the TTL covers the rest). */
const PUBLISH_TIMEOUT_MS = 2_000;

interface Entry {
  userId: string;
  session: LiveSession | null;
  until: number;
}

export interface SessionsDeps {
  db: Database;
  pubsub: PubSub;
  log: Pick<FastifyBaseLogger, 'warn'>;
  ttlMs?: number;
  maxEntries?: number;
}

/**
 * Sessions (docs/accounts.md "Sessions"): a session is a refresh-token family; every access
 * token names its family in the `sid` claim. A session is live while its family is not revoked
 * and its user exists and is not banned.
 *
 * `check` answers from a per-process cache (short TTL, bounded size) so the hot path costs no
 * database round trip; `end…` change nothing in the database themselves (the caller revokes
 * first) but drop the cache entries here and, through pub/sub, on every other replica.
 */
export class Sessions {
  private readonly cache = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<LiveSession | null>>();
  /** Bumped by every invalidation: a lookup that started before one is not cached. */
  private generation = 0;
  private unsubscribe: (() => Promise<void>) | null = null;
  private readonly ttlMs: number;
  private readonly maxEntries: number;

  constructor(private readonly deps: SessionsDeps) {
    this.ttlMs = deps.ttlMs ?? SESSION_CACHE_TTL_MS;
    this.maxEntries = deps.maxEntries ?? SESSION_CACHE_MAX;
  }

  /** Starts hearing other replicas' invalidations. */
  async listen(): Promise<void> {
    if (this.unsubscribe) return;
    this.unsubscribe = await this.deps.pubsub.subscribe(SESSIONS_CHANNEL, (message) => this.forget(message));
  }

  async close(): Promise<void> {
    const unsubscribe = this.unsubscribe;
    this.unsubscribe = null;
    await unsubscribe?.();
  }

  /** The session when it is live and belongs to the user; null otherwise. */
  async check(userId: string, sid: string): Promise<LiveSession | null> {
    const now = Date.now();
    const hit = this.cache.get(sid);
    if (hit && hit.until > now) {
      // Least recently used order: a hit moves to the end.
      this.cache.delete(sid);
      this.cache.set(sid, hit);
      return hit.userId === userId ? hit.session : null;
    }
    if (hit) this.cache.delete(sid);
    const key = `${userId}:${sid}`;
    const running = this.pending.get(key);
    if (running) return running;
    const generation = this.generation;
    const lookup: Promise<LiveSession | null> = repo
      .findSessionState(this.deps.db, userId, sid)
      .then((state) => {
        const session: LiveSession | null =
          state && state.live && !state.bannedAt ? { role: state.role === 'admin' ? 'admin' : 'user' } : null;
        if (generation === this.generation) this.remember(sid, { userId, session, until: Date.now() + this.ttlMs });
        return session;
      })
      .finally(() => {
        if (this.pending.get(key) === lookup) this.pending.delete(key);
      });
    this.pending.set(key, lookup);
    return lookup;
  }

  /** One session ended (log-out, reuse detected): call after its family is revoked. */
  async endSession(sid: string): Promise<void> {
    await this.announce(`s:${sid}`);
  }

  /** Every session of the user ended (password reset, ban, deletion): call after the change. */
  async endUserSessions(userId: string): Promise<void> {
    await this.announce(`u:${userId}`);
  }

  private async announce(message: string): Promise<void> {
    this.forget(message);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.deps.pubsub.publish(SESSIONS_CHANNEL, message),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('pub/sub publish timed out')), PUBLISH_TIMEOUT_MS);
        }),
      ]);
    } catch (error) {
      this.deps.log.warn(
        { err: error },
        'could not announce ended sessions to other replicas; their caches expire soon',
      );
    } finally {
      clearTimeout(timer);
    }
  }

  /** Drops what an invalidation message names: `s:<sid>` or `u:<user id>`. */
  private forget(message: string): void {
    this.generation += 1;
    // Lookups under way may have read the database before the change: later checks ask again.
    this.pending.clear();
    const id = message.slice(2);
    if (message.startsWith('s:')) {
      this.cache.delete(id);
    } else if (message.startsWith('u:')) {
      for (const [sid, entry] of this.cache) if (entry.userId === id) this.cache.delete(sid);
    }
  }

  private remember(sid: string, entry: Entry): void {
    this.cache.delete(sid);
    while (this.cache.size >= this.maxEntries) {
      const oldest = this.cache.keys().next().value;
      if (oldest === undefined) break;
      this.cache.delete(oldest);
    }
    this.cache.set(sid, entry);
  }
}
