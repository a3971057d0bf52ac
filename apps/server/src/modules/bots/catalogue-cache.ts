import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { SharedCache } from '../../providers/cache/index.js';
import type { PubSub } from '../../providers/pubsub/index.js';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** The pub/sub channel on which a replica says "the catalogue changed: look again". */
export const CATALOGUE_CHANNEL = 'catalogue';
const VERSION_KEY = 'catalogue:version';
/** Longer than any page's time, so that pages never outlive the version they were read under. */
const VERSION_TTL_MS = 7 * 24 * 3600_000;
/** A replica reads the shared version again at least this often, even without a message. */
const VERSION_FRESH_MS = 1000;
/** Pages kept in this process (the most recently computed win). */
const LOCAL_PAGES = 500;

/** A guest catalogue page as sent: its JSON and, made once when first asked, its compressed copies. */
export class CachedPage {
  private br?: Promise<Buffer>;
  private gz?: Promise<Buffer>;
  /** The compressed copies once made (sent without waiting on their promise). */
  private readonly made: { br?: Buffer; gzip?: Buffer } = {};
  readonly json: Buffer;

  constructor(json: string) {
    this.json = Buffer.from(json, 'utf8');
  }

  /** The compressed copy when already made, else null (then `encoded` makes it). */
  encodedNow(encoding: 'br' | 'gzip'): Buffer | null {
    return this.made[encoding] ?? null;
  }

  encoded(encoding: 'br' | 'gzip'): Promise<Buffer> {
    if (encoding === 'br')
      return (this.br ??= brotli(this.json, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 6,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: this.json.length,
        },
      }).then((bytes) => (this.made.br = bytes)));
    return (this.gz ??= gzip(this.json, { level: 6 }).then((bytes) => (this.made.gzip = bytes)));
  }
}

export interface CatalogueCacheOptions {
  cache: SharedCache;
  pubsub: PubSub;
  /** How long a page is kept (CATALOGUE_CACHE_S); 0 turns the cache off. */
  ttlMs: number;
  /** Longest wait for the shared cache before the page is read from the database instead. */
  timeoutMs?: number;
  /**
   * A change made inside a transaction is seen by others only once it commits: the version is
   * changed again this long after `changed()`, so a page read in between is dropped too.
   */
  settleMs?: number;
  onError?: (error: unknown) => void;
}

/**
 * The guest catalogue's pages, shared by every replica (docs/operations.md "Limits", "The
 * guest catalogue's cache"). A page's key is the catalogue's version plus the query; the version lives in the
 * shared cache (Redis, the database, or in process on PGlite) and `changed()` — every
 * publish, unpublish, edit or deletion of a character — writes a new one and tells every
 * replica through pub/sub, which then drop their own copies. A cold key is computed once per
 * process at a time (single-flight), then kept in the shared cache for the other replicas and
 * in this process for the next requests. The shared cache being slow or away never fails a
 * read: the page is computed from the database.
 */
export class CatalogueCache {
  private version: { value: string; at: number } | null = null;
  private versionLoading: Promise<string> | null = null;
  private readonly local = new Map<string, { page: CachedPage; expiresAt: number }>();
  private readonly inflight = new Map<string, Promise<CachedPage>>();
  private unsubscribe: (() => Promise<void>) | null = null;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly timeoutMs: number;

  constructor(private readonly options: CatalogueCacheOptions) {
    this.timeoutMs = options.timeoutMs ?? 100;
  }

  get enabled(): boolean {
    return this.options.ttlMs > 0;
  }

  /** Listens for the other replicas' changes. */
  async listen(): Promise<void> {
    if (!this.enabled) return;
    this.unsubscribe = await this.options.pubsub.subscribe(CATALOGUE_CHANNEL, () => this.forget());
  }

  /** The page of `query` (a canonical string of the guest's query), computed by `compute` when no copy holds it. */
  /** A page this process holds, fresh, under a version read recently, is answered at once (no await). */
  page(query: string, compute: () => Promise<unknown>): Promise<CachedPage> | CachedPage {
    if (!this.enabled) return compute().then((page) => new CachedPage(JSON.stringify(page)));
    const version = this.currentVersion();
    if (typeof version !== 'string') return version.then((value) => this.pageOf(value, query, compute));
    return this.pageOf(version, query, compute);
  }

  private pageOf(version: string, query: string, compute: () => Promise<unknown>): Promise<CachedPage> | CachedPage {
    const key = `catalogue:${version}:${query}`;
    const held = this.local.get(key);
    if (held && held.expiresAt > Date.now()) return held.page;
    let flight = this.inflight.get(key);
    if (!flight) {
      flight = this.fill(key, compute).finally(() => this.inflight.delete(key));
      this.inflight.set(key, flight);
    }
    return flight;
  }

  /** The catalogue changed (a character published, unpublished, edited or deleted): every replica reads it again. */
  async changed(): Promise<void> {
    if (!this.enabled) return;
    await this.bump();
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.bump();
    }, this.options.settleMs ?? 1500);
    timer.unref();
    this.timers.add(timer);
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await this.unsubscribe?.().catch(() => undefined);
  }

  private async bump(): Promise<void> {
    const value = randomUUID();
    this.forget();
    this.version = { value, at: Date.now() };
    await this.shared(() => this.options.cache.set(VERSION_KEY, value, VERSION_TTL_MS));
    await this.options.pubsub.publish(CATALOGUE_CHANNEL, 'changed').catch((error: unknown) => this.report(error));
  }

  /** Drops this process's pages and its copy of the version. */
  private forget(): void {
    this.version = null;
    this.local.clear();
  }

  private async fill(key: string, compute: () => Promise<unknown>): Promise<CachedPage> {
    const stored = await this.shared(() => this.options.cache.get(key));
    const json = stored ?? JSON.stringify(await compute());
    if (stored === null) void this.shared(() => this.options.cache.set(key, json, this.options.ttlMs));
    const page = new CachedPage(json);
    if (this.local.size >= LOCAL_PAGES) this.local.delete(this.local.keys().next().value!);
    this.local.set(key, { page, expiresAt: Date.now() + this.options.ttlMs });
    return page;
  }

  private currentVersion(): Promise<string> | string {
    const held = this.version;
    if (held && Date.now() - held.at < VERSION_FRESH_MS) return held.value;
    this.versionLoading ??= this.loadVersion().finally(() => (this.versionLoading = null));
    return this.versionLoading;
  }

  private async loadVersion(): Promise<string> {
    let value = await this.shared(() => this.options.cache.get(VERSION_KEY));
    if (value === null) {
      // None yet (or the cache was emptied): one is written; a replica that wrote another at the
      // same moment wins on the next reading.
      value = randomUUID();
      await this.shared(() => this.options.cache.set(VERSION_KEY, value!, VERSION_TTL_MS));
    }
    if (this.version?.value !== value) this.local.clear();
    this.version = { value, at: Date.now() };
    return value;
  }

  /** A call to the shared cache that gives up after `timeoutMs` (null: treated as missing). */
  private async shared<T>(call: () => Promise<T>): Promise<T | null> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const work = call();
      work.catch(() => undefined);
      return await Promise.race([
        work,
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error('The shared cache did not answer in time')), this.timeoutMs);
        }),
      ]);
    } catch (error) {
      this.report(error);
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  private lastReport = -Infinity;
  private report(error: unknown): void {
    if (Date.now() - this.lastReport < 60_000) return;
    this.lastReport = Date.now();
    this.options.onError?.(error);
  }
}
