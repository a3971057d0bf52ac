import { describe, expect, inject, it } from 'vitest';
import { MemoryPubSub } from '../../providers/pubsub/index.js';
import { createTestApp, createTestDatabase, type TestApp } from '../../../test/helpers.js';
import { banUser } from './ban.js';
import { SESSION_CACHE_TTL_MS } from './sessions.js';

/**
 * Two replicas on one database. On PostgreSQL each app picks its pub/sub from the settings
 * like a real replica (LISTEN/NOTIFY, or Redis when REDIS_URL is set); on PGlite (one process
 * only) both share one in-process bus.
 */
const testDb = inject('testDb');
const redisUrl = process.env.REDIS_URL;

async function replicas(env: Record<string, string> = {}): Promise<[TestApp, TestApp]> {
  const database = await createTestDatabase();
  const pubsub = testDb.kind === 'pglite' ? new MemoryPubSub() : undefined;
  const a = await createTestApp({ database, pubsub, env });
  const b = await createTestApp({ database, pubsub, env });
  return [a, b];
}

/** Polls until the replica refuses the token; fails long before the session cache would expire. */
async function refusedSoon(app: TestApp, auth: { authorization: string }): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < 3000) {
    const res = await app.app.inject({ url: '/api/profile', headers: auth });
    if (res.statusCode === 401) return Date.now() - started;
    expect(res.statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the other replica still accepts the token');
}

function scenario(name: string, env: () => Record<string, string>, enabled = true) {
  describe.runIf(enabled)(name, () => {
    it('log-out on A: the token is refused on B at once, though B had it cached', async () => {
      expect(SESSION_CACHE_TTL_MS).toBeGreaterThan(3000);
      const [a, b] = await replicas(env());
      const email = `replica_${Date.now()}@example.test`;
      const register = await a.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: { username: 'replica', email, password: 'correct horse battery', age_confirmed: true },
      });
      expect(register.statusCode).toBe(201);
      const pair = (
        await b.app.inject({ method: 'POST', url: '/api/token', payload: { email, password: 'correct horse battery' } })
      ).json() as { access: string; refresh: string };
      const auth = { authorization: `Bearer ${pair.access}` };
      // Both replicas have the session in their cache.
      expect((await a.app.inject({ url: '/api/profile', headers: auth })).statusCode).toBe(200);
      expect((await b.app.inject({ url: '/api/profile', headers: auth })).statusCode).toBe(200);

      const out = await a.app.inject({ method: 'POST', url: '/api/token/revoke', payload: { refresh: pair.refresh } });
      expect(out.statusCode).toBe(204);
      expect((await a.app.inject({ url: '/api/profile', headers: auth })).statusCode).toBe(401);
      expect(await refusedSoon(b, auth)).toBeLessThan(3000);
    });

    it('a password change on A: the other sessions are refused on B at once, this one goes on (issue 27)', async () => {
      const [a, b] = await replicas(env());
      const email = `replica_pw_${Date.now()}@example.test`;
      const password = 'correct horse battery';
      await a.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: { username: 'replica', email, password, age_confirmed: true },
      });
      const logIn = async (replica: TestApp) =>
        (
          (await replica.app.inject({ method: 'POST', url: '/api/token', payload: { email, password } })).json() as {
            access: string;
          }
        ).access;
      const mine = { authorization: `Bearer ${await logIn(a)}` };
      const other = { authorization: `Bearer ${await logIn(b)}` };
      // B has both sessions in its cache.
      expect((await b.app.inject({ url: '/api/profile', headers: other })).statusCode).toBe(200);
      expect((await b.app.inject({ url: '/api/profile', headers: mine })).statusCode).toBe(200);

      const changed = await a.app.inject({
        method: 'POST',
        url: '/api/profile/password',
        headers: mine,
        payload: { current_password: password, new_password: 'a brand new password' },
      });
      expect(changed.statusCode).toBe(200);
      expect(await refusedSoon(b, other)).toBeLessThan(3000);
      expect((await b.app.inject({ url: '/api/profile', headers: mine })).statusCode).toBe(200);
      expect((await a.app.inject({ url: '/api/profile', headers: mine })).statusCode).toBe(200);
    });

    it('concurrent refreshes on both replicas answer the same pair; a ban on B ends the session on A', async () => {
      const [a, b] = await replicas(env());
      const email = `replica2_${Date.now()}@example.test`;
      const register = await a.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: { username: 'replica', email, password: 'correct horse battery', age_confirmed: true },
      });
      const pair = (
        await a.app.inject({ method: 'POST', url: '/api/token', payload: { email, password: 'correct horse battery' } })
      ).json() as { access: string; refresh: string };
      const answers = await Promise.all(
        [a, b, a, b].map((replica) =>
          replica.app.inject({ method: 'POST', url: '/api/token/refresh', payload: { refresh: pair.refresh } }),
        ),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
      const pairs = answers.map((answer) => answer.json());
      for (const other of pairs) expect(other).toEqual(pairs[0]);
      const auth = { authorization: `Bearer ${pairs[0].access}` };
      expect((await a.app.inject({ url: '/api/profile', headers: auth })).statusCode).toBe(200);
      expect((await b.app.inject({ url: '/api/profile', headers: auth })).statusCode).toBe(200);

      await banUser({ db: b.database.db, sessions: b.app.sessions }, register.json().id, 'Fraud');
      expect((await b.app.inject({ url: '/api/profile', headers: auth })).statusCode).toBe(401);
      expect(await refusedSoon(a, auth)).toBeLessThan(3000);
    });
  });
}

scenario(testDb.kind === 'pglite' ? 'in-process pub/sub (PGlite)' : 'PostgreSQL LISTEN/NOTIFY', () => ({}));
scenario('Redis', () => ({ REDIS_URL: redisUrl! }), Boolean(redisUrl) && testDb.kind === 'postgres');
