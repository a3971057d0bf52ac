import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Chat } from '@reverie/shared';
import { sql } from 'drizzle-orm';
import { rowsOf, type DatabaseHandle } from '../src/db/client.js';
import { createBot, createUser } from './factories.js';
import { createTestApp, createTestDatabase, openReplicaDatabase, type TestApp } from './helpers.js';
import { ScriptedLlm } from './scripted-llm.js';

/**
 * Limits counted once for the cluster (docs/ARCHITECTURE.md "Shared limits"): two apps built
 * on one database (and one Redis), as two replicas, refuse once their total passes the limit.
 * Runs on the backend the test database selects (in process on PGlite, `rate_limits` on
 * PostgreSQL) and, when REDIS_URL is set, on Redis too.
 */
const redisUrl = process.env.REDIS_URL;
const llm = new ScriptedLlm();
const env = {
  CHAT_MESSAGES_PER_MINUTE: '12',
  RATE_LIMIT_PER_MINUTE: '6',
  AUTH_RATE_LIMIT_IP_PER_MINUTE: '4',
};

let database: DatabaseHandle;
let second: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
  second = await openReplicaDatabase(database);
});

/** A fresh client address per test: Redis outlives the test database. */
const freshIp = () =>
  `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

const backends: [string, Record<string, string>, boolean][] = [
  ['the database or in process', {}, true],
  ['Redis', { REDIS_URL: redisUrl ?? '' }, Boolean(redisUrl)],
];

describe.each(backends)('one limit across two replicas (%s)', (_name, extra, enabled) => {
  let one: TestApp;
  let two: TestApp;
  beforeAll(async () => {
    if (!enabled) return;
    one = await createTestApp({ database, llm, env: { ...env, ...extra } });
    two = await createTestApp({ database: second, llm, env: { ...env, ...extra } });
  });

  it.runIf(enabled)('chat fair use: 3 earlier + 12 alternating sends at 12/min → the last 3 refused', async () => {
    const { auth } = await createUser(one.app, database.db);
    const bot = await createBot(database.db);
    const chat = (
      await one.app.inject({
        method: 'POST',
        url: '/api/chat/create',
        headers: auth,
        payload: { botID: bot.id },
        remoteAddress: freshIp(),
      })
    ).json<Chat>();
    const send = (t: TestApp, i: number) =>
      t.app.inject({
        method: 'POST',
        url: `/api/chat/${chat.id}/messages`,
        headers: auth,
        payload: { client_id: randomUUID(), text: `message ${i}` },
        // Each from another address: only the per-user limit is measured here.
        remoteAddress: freshIp(),
      });
    for (let i = 0; i < 3; i++) expect((await send(one, i)).statusCode).toBe(200);
    const statuses: number[] = [];
    let refused: Awaited<ReturnType<typeof send>> | undefined;
    for (let i = 0; i < 12; i++) {
      const res = await send(i % 2 ? one : two, 3 + i);
      statuses.push(res.statusCode);
      if (res.statusCode === 429) refused ??= res;
    }
    expect(statuses).toEqual([...Array(9).fill(200), 429, 429, 429]);
    expect(refused!.json().code).toBe('rate_limited');
    const retryAfter = Number(refused!.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it.runIf(enabled)('the global per-IP limit (@fastify/rate-limit) counts both replicas', async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    let refused: Awaited<ReturnType<typeof one.app.inject>> | undefined;
    for (let i = 0; i < 8; i++) {
      const res = await (i % 2 ? two : one).app.inject({ url: '/api/blog', remoteAddress: ip });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) refused ??= res;
      // Each replica adds its hits of the global limit to the shared counter every 250 ms
      // (BatchedWindowCounter): the other hears of them within that time.
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
    expect(statuses).toEqual([...Array(6).fill(200), 429, 429]);
    expect(refused!.json().code).toBe('rate_limited');
    expect(Number(refused!.headers['retry-after'])).toBeGreaterThan(0);
    // Another address has its own count.
    expect((await two.app.inject({ url: '/api/blog', remoteAddress: freshIp() })).statusCode).toBe(200);
    // Counted under a hash: no address in the table.
    const keys = rowsOf<{ key: string }>(await database.db.execute(sql`select key from rate_limits`));
    expect(keys.filter((row) => row.key.includes(ip))).toEqual([]);
    if (database.raw.kind === 'postgres' && !extra.REDIS_URL)
      expect(keys.some((row) => row.key.startsWith('rl:global:'))).toBe(true);
  });

  it.runIf(enabled)("a route's own limit (config.rateLimit: log-in per IP) counts both replicas", async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await (i % 2 ? one : two).app.inject({
        method: 'POST',
        url: '/api/token',
        payload: { email: `nobody-${i}@example.test`, password: 'wrong password' },
        remoteAddress: ip,
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
  });
});
