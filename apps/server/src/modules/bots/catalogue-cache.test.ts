import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MemoryCache } from '../../providers/cache/index.js';
import { MemoryPubSub } from '../../providers/pubsub/index.js';
import { createBot, createUser } from '../../../test/factories.js';
import { createTestApp, createTestDatabase, type TestApp } from '../../../test/helpers.js';
import { CachedPage, CatalogueCache } from './catalogue-cache.js';

/** Two replicas on one database and one pub/sub (PGlite: the in-process cache of that database is their shared store). */
let a: TestApp;
let b: TestApp;
const pubsub = new MemoryPubSub();

beforeAll(async () => {
  const database = await createTestDatabase();
  const env = { CATALOGUE_CACHE_S: '60' };
  a = await createTestApp({ database, pubsub, env });
  b = await createTestApp({ database, pubsub, env });
});
afterAll(async () => pubsub.close());

const slugs = async (t: TestApp, query = '') => {
  const response = await t.app.inject({ method: 'GET', url: `/api/bots/available${query}` });
  expect(response.statusCode).toBe(200);
  return (response.json() as { results: { slug: string }[] }).results.map((bot) => bot.slug);
};

describe("the guest catalogue's shared cache", () => {
  it('serves a page one replica read to the other, and drops it on both when a character is published', async () => {
    const first = await createBot(a.database.db, { name: 'First Listed' });
    expect(await slugs(b)).toContain(first.slug);
    // Written behind the services' back: no replica hears of it, the cached page stays.
    const unseen = await createBot(a.database.db, { name: 'Written Directly' });
    expect(await slugs(a)).not.toContain(unseen.slug);
    expect(await slugs(b)).not.toContain(unseen.slug);

    // An author publishes a character through replica A: both replicas read the catalogue again.
    const { user, auth } = await createUser(a.app, a.database.db);
    const own = await createBot(a.database.db, {
      name: 'Made Public',
      authorId: user.id,
      visibility: 'private',
      reviewState: 'approved',
    });
    const patched = await a.app.inject({
      method: 'PATCH',
      url: `/api/bot/${own.slug}`,
      headers: auth,
      payload: { visibility: 'public' },
    });
    expect(patched.statusCode).toBe(200);
    // Replica B hears of it by pub/sub, a few milliseconds later (without the message, it reads
    // the version again within VERSION_FRESH_MS, 1 s): a guest may see the old page that long.
    const within = { timeout: 1500, interval: 10 };
    await vi.waitFor(async () => {
      const onB = await slugs(b);
      expect(onB).toContain(own.slug);
      expect(onB).toContain(unseen.slug);
    }, within);
    expect(await slugs(a)).toContain(own.slug);
    // The author made it private again: gone from both as soon as B hears of it.
    await a.app.inject({
      method: 'PATCH',
      url: `/api/bot/${own.slug}`,
      headers: auth,
      payload: { visibility: 'private' },
    });
    await vi.waitFor(async () => expect(await slugs(b)).not.toContain(own.slug), within);
  });

  it('keeps each query apart and sends the page compressed as the client accepts', async () => {
    const anime = await slugs(b, '?tags=anime');
    const realistic = await slugs(b, '?tags=realistic');
    expect(anime).not.toEqual(realistic);
    for (let i = 0; i < 12; i++)
      await createBot(a.database.db, { name: `Compressible ${i}`, description: 'A long description. '.repeat(20) });
    const response = await b.app.inject({
      method: 'GET',
      url: '/api/bots/available?q=compressible',
      headers: { 'accept-encoding': 'br' },
    });
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/application\/json/);
    const page = JSON.parse(brotliDecompressSync(response.rawPayload).toString('utf8'));
    expect(page.results).toHaveLength(12);
  });

  it('computes a cold page once for many requests at the same moment (single-flight)', async () => {
    const { CatalogueCache } = await import('./catalogue-cache.js');
    const { MemoryCache } = await import('../../providers/cache/index.js');
    const cache = new CatalogueCache({ cache: new MemoryCache(), pubsub: new MemoryPubSub(), ttlMs: 60_000 });
    let computed = 0;
    const compute = async () => {
      computed++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { results: [], next_param: null };
    };
    const pages = await Promise.all(Array.from({ length: 50 }, () => cache.page('q', compute)));
    expect(computed).toBe(1);
    expect(pages.every((page) => page === pages[0])).toBe(true);
  });
});

describe('a page this process holds', () => {
  it('is answered without a promise while fresh, with its compressed copy once made', async () => {
    const cache = new CatalogueCache({ cache: new MemoryCache(), pubsub: new MemoryPubSub(), ttlMs: 60_000 });
    let computed = 0;
    const compute = async () => ({ results: [computed++] });
    const first = cache.page('q', compute);
    expect(first).toBeInstanceOf(Promise); // the version and the page are read first
    const page = await first;
    const again = cache.page('q', compute);
    expect(again).toBe(page); // the same page, not a promise of it
    expect(computed).toBe(1);
    expect(page).toBeInstanceOf(CachedPage);
    expect(page.encodedNow('br')).toBeNull();
    const br = await page.encoded('br');
    expect(page.encodedNow('br')).toBe(br);
    expect(brotliDecompressSync(br).toString()).toBe('{"results":[0]}');
    await cache.close();
  });
});
