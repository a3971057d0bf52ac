import { randomUUID } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../../db/client.js';
import { createTestDatabase, openReplicaDatabase } from '../../../test/helpers.js';
import {
  BatchedWindowCounter,
  createWindowCounter,
  MemoryWindowCounter,
  PostgresWindowCounter,
  RedisWindowCounter,
  ResilientWindowCounter,
  sharedRateLimitStore,
  WindowLimiter,
  type WindowCounter,
} from './index.js';

const redisUrl = process.env.REDIS_URL;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let database: DatabaseHandle;
/** A second replica's connection pool to the same database (the same handle on PGlite). */
let second: DatabaseHandle;
const opened: WindowCounter[] = [];
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  second = await openReplicaDatabase(database);
});
afterAll(async () => {
  for (const app of apps.splice(0)) await app.close();
  for (const counter of opened.splice(0)) await counter.close();
});

const keep = <T extends WindowCounter>(counter: T) => {
  opened.push(counter);
  return counter;
};

/** Two counters that share their backend, as two replicas would. */
type Pair = () => [WindowCounter, WindowCounter];

const memory = new MemoryWindowCounter();
const backends: [string, Pair, boolean][] = [
  ['in process', () => [memory, memory], true],
  [
    'PostgreSQL (rate_limits)',
    () => [new PostgresWindowCounter(database.db), new PostgresWindowCounter(second.db)],
    true,
  ],
  [
    'Redis',
    () => {
      const prefix = `reverie-test:${randomUUID()}:`;
      return [
        keep(new RedisWindowCounter(redisUrl!, () => {}, prefix)),
        keep(new RedisWindowCounter(redisUrl!, () => {}, prefix)),
      ];
    },
    Boolean(redisUrl),
  ],
];

describe.each(backends)('window counter: %s', (_name, pair, enabled) => {
  it.runIf(enabled)('counts the hits of both replicas in one window; keys apart', async () => {
    const [a, b] = pair();
    const key = `k-${randomUUID()}`;
    const counts: number[] = [];
    for (const counter of [a, b, a, b, a]) counts.push((await counter.hit(key, 60_000)).count);
    expect(counts).toEqual([1, 2, 3, 4, 5]);
    const last = await b.hit(key, 60_000);
    expect(last.ttlMs).toBeGreaterThan(50_000);
    expect(last.ttlMs).toBeLessThanOrEqual(60_000);
    expect((await a.hit(`other-${key}`, 60_000)).count).toBe(1);
    expect(await b.peek(key)).toMatchObject({ count: 6 });
    expect(await b.peek(`never-${key}`)).toEqual({ count: 0, ttlMs: 0 });
  });

  it.runIf(enabled)('counts hits by more than one (a batch)', async () => {
    const [a, b] = pair();
    const key = `batch-${randomUUID()}`;
    expect((await a.hit(key, 60_000, 5)).count).toBe(5);
    expect((await b.hit(key, 60_000, 3)).count).toBe(8);
    expect((await a.hit(key, 60_000)).count).toBe(9);
  });

  it.runIf(enabled)(
    'batched (the global limit): every replica hit counted, each learns the others within a flush',
    async () => {
      const [sharedA, sharedB] = pair();
      const a = new BatchedWindowCounter(sharedA, 60_000);
      const b = new BatchedWindowCounter(sharedB, 60_000);
      const key = `batched-${randomUUID()}`;
      expect((await a.hit(key, 60_000)).count).toBe(1); // the first hit asks the shared counter
      expect((await b.hit(key, 60_000)).count).toBe(2);
      for (let i = 0; i < 4; i++) await a.hit(key, 60_000);
      expect((await a.hit(key, 60_000)).count).toBe(6); // 1 heard + 5 of its own, none written yet
      expect(await sharedB.peek(key)).toMatchObject({ count: 2 });
      await a.flush();
      expect(await sharedB.peek(key)).toMatchObject({ count: 7 });
      await b.flush(); // nothing pending on B
      expect((await b.hit(key, 60_000)).count).toBe(3); // B has not heard yet: it counts its own
      await b.flush();
      expect((await b.hit(key, 60_000)).count).toBe(9); // …and after its flush, the cluster's
      await a.close();
      await b.close();
    },
  );

  it.runIf(enabled)(
    'batched: hitNow answers at once only for a key heard within the flush, counted as hit would',
    async () => {
      const [sharedA] = pair();
      const a = new BatchedWindowCounter(sharedA, 60_000);
      const key = `batched-now-${randomUUID()}`;
      expect(a.hitNow(key, 60_000)).toBeNull(); // never heard: only hit() can answer, nothing counted
      expect((await a.hit(key, 60_000)).count).toBe(1);
      expect(a.hitNow(key, 60_000)?.count).toBe(2);
      expect((await a.hit(key, 60_000)).count).toBe(3);
      await a.flush();
      expect(await sharedA.peek(key)).toMatchObject({ count: 3 });
      await a.close();
    },
  );

  it.runIf(enabled)('counts every one of many concurrent hits', async () => {
    const [a, b] = pair();
    const key = `c-${randomUUID()}`;
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).hit(key, 60_000)));
    expect(results.map((r) => r.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  it.runIf(enabled)('counts the hits of many keys at one moment, each hit exactly (a batch of counts)', async () => {
    const [a, b] = pair();
    const keys = Array.from({ length: 5 }, (_, i) => `m${i}-${randomUUID()}`);
    // 5 keys × (2 hits of 1 on A, 1 hit of 3 on B), all asked in the same turn of the event loop.
    const hits = keys.flatMap((key) => [a.hit(key, 60_000), b.hit(key, 60_000, 3), a.hit(key, 60_000)]);
    const counts = (await Promise.all(hits)).map((r) => r.count);
    for (let k = 0; k < keys.length; k++) {
      const [first, batch, last] = counts.slice(k * 3, k * 3 + 3) as [number, number, number];
      // Whatever the order in which the replicas' statements ran, the hits were counted one
      // after the other: the counts are those of some order of 1, 3 and 1.
      expect(Math.max(first, batch, last)).toBe(5);
      expect(first).not.toBe(last);
      expect(await a.peek(keys[k]!)).toMatchObject({ count: 5 });
    }
  });

  it.runIf(enabled)('starts a new window once the old one ended', async () => {
    const [a, b] = pair();
    const key = `w-${randomUUID()}`;
    await a.hit(key, 1000);
    expect((await b.hit(key, 1000)).count).toBe(2);
    await sleep(1100);
    expect(await a.peek(key)).toEqual({ count: 0, ttlMs: 0 });
    const fresh = await b.hit(key, 1000);
    expect(fresh.count).toBe(1);
    expect(fresh.ttlMs).toBeGreaterThan(500);
  });

  it.runIf(enabled)(
    'backs a @fastify/rate-limit limit shared by two apps, per route, whose window resets',
    async () => {
      const [a, b] = pair();
      const build = async (counter: WindowCounter) => {
        const app = Fastify();
        apps.push(app);
        await app.register(rateLimit, { max: 3, timeWindow: 3000, store: sharedRateLimitStore(counter) });
        app.get('/global', async () => 'ok');
        app.get('/strict', { config: { rateLimit: { max: 1, timeWindow: 3000 } } }, async () => 'ok');
        await app.ready();
        return app;
      };
      const one = await build(a);
      const two = await build(b);
      // A fresh address per run: Redis outlives the test database.
      const ip = `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
      const get = (app: FastifyInstance, url: string) => app.inject({ url, remoteAddress: ip });
      const statuses: number[] = [];
      for (const app of [one, two, one, two, one]) statuses.push((await get(app, '/global')).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      // Another route with its own limit keeps its own count.
      expect((await get(two, '/strict')).statusCode).toBe(200);
      const refused = await get(one, '/strict');
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(3);
      await sleep(3100);
      expect((await get(two, '/global')).statusCode).toBe(200);
      expect((await get(one, '/strict')).statusCode).toBe(200);
    },
  );

  it.runIf(enabled)('limits with WindowLimiter: the seconds to wait once over', async () => {
    const [a, b] = pair();
    const id = randomUUID();
    const limiters = [new WindowLimiter(a, 'test', 2, 60_000), new WindowLimiter(b, 'test', 2, 60_000)];
    expect(await limiters[0]!.take(id)).toBe(0);
    expect(await limiters[1]!.take(id)).toBe(0);
    const wait = await limiters[0]!.take(id);
    expect(wait).toBeGreaterThan(50);
    expect(wait).toBeLessThanOrEqual(60);
  });
});

describe('createWindowCounter', () => {
  it('chooses Redis with REDIS_URL, the database on PostgreSQL, one in-process counter per PGlite', async () => {
    if (redisUrl) {
      const counter = keep(createWindowCounter({ REDIS_URL: redisUrl }, database));
      expect(counter.kind).toBe('redis');
    }
    const chosen = createWindowCounter({}, database);
    if (database.raw.kind === 'postgres') expect(chosen.kind).toBe('postgres');
    else {
      expect(chosen.kind).toBe('memory');
      // Apps built on the same PGlite database (one process) count together.
      expect(createWindowCounter({}, database)).toBe(chosen);
      const other = await createTestDatabase();
      expect(createWindowCounter({}, other)).not.toBe(chosen);
    }
  });
});

describe('ResilientWindowCounter', () => {
  it('counts in process while the shared backend fails, and reports it once', async () => {
    const failing: WindowCounter = {
      kind: 'redis',
      hit: () => Promise.reject(new Error('down')),
      peek: () => Promise.reject(new Error('down')),
      close: async () => {},
    };
    const errors: unknown[] = [];
    const counter = new ResilientWindowCounter(failing, (error) => errors.push(error));
    expect((await counter.hit('k', 60_000)).count).toBe(1);
    expect((await counter.hit('k', 60_000)).count).toBe(2);
    expect((await counter.peek('k')).count).toBe(2);
    expect(errors).toHaveLength(1);
    expect(counter.kind).toBe('redis');
  });

  it('answers what the shared backend answers while it works', async () => {
    const counter = new ResilientWindowCounter(new PostgresWindowCounter(database.db));
    const key = randomUUID();
    await counter.hit(key, 60_000);
    expect((await new PostgresWindowCounter(second.db).hit(key, 60_000)).count).toBe(2);
  });
});

describe('PostgresWindowCounter.purge', () => {
  it('deletes ended windows of its own prefix only', async () => {
    const counter = new PostgresWindowCounter(database.db, 'purge-test:');
    // A hit purges by chance (one in 200): not these, so the purge below is the one that counts.
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.999);
    try {
      await counter.hit('ended', 1);
      await counter.hit('open', 60_000);
    } finally {
      random.mockRestore();
    }
    await sleep(20);
    expect(await counter.purge()).toBe(1);
    expect((await counter.peek('open')).count).toBe(1);
  });
});

describe('batched counter during a flush', () => {
  it('counts the hits on their way to the shared counter: a request during a flush is not let through', async () => {
    const memory = new MemoryWindowCounter();
    let release: () => void = () => {};
    let hold = false;
    // The shared counter answers a flush only when released (a slow database or Redis).
    const slow: WindowCounter = {
      kind: memory.kind,
      hit: async (key, windowMs, by) => {
        if (hold) await new Promise<void>((resolve) => (release = resolve));
        return memory.hit(key, windowMs, by);
      },
      peek: (key) => memory.peek(key),
      close: () => memory.close(),
    };
    const batched = new BatchedWindowCounter(slow, 60_000);
    const key = `flushing-${randomUUID()}`;
    expect((await batched.hit(key, 60_000)).count).toBe(1);
    expect((await batched.hit(key, 60_000)).count).toBe(2);
    expect((await batched.hit(key, 60_000)).count).toBe(3);
    hold = true;
    const flushing = batched.flush();
    // Two hits are in flight to the shared counter; the next one is the fourth.
    expect((await batched.hit(key, 60_000)).count).toBe(4);
    expect(batched.hitNow(key, 60_000)?.count).toBe(5);
    hold = false;
    release();
    await flushing;
    expect((await batched.hit(key, 60_000)).count).toBe(6);
    await batched.close();
    expect(await memory.peek(key)).toMatchObject({ count: 6 });
  });
});
