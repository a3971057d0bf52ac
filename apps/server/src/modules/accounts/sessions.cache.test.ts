import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client.js';
import { refreshTokens, users } from '../../db/schema.js';
import { MemoryPubSub } from '../../providers/pubsub/index.js';
import { createTestDatabase } from '../../../test/helpers.js';
import { Sessions } from './sessions.js';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
});

const log = { warn: () => {} };
let counter = 0;

/** A user with one live session, straight in the database. */
async function session() {
  counter += 1;
  const [user] = await database.db
    .insert(users)
    .values({ username: `c${counter}`, email: `cache_${counter}@example.test`, passwordHash: '!', name: 'C' })
    .returning();
  const sid = crypto.randomUUID();
  await database.db.insert(refreshTokens).values({
    userId: user!.id,
    familyId: sid,
    tokenHash: `hash-${sid}`,
    expiresAt: new Date(Date.now() + 86_400_000),
  });
  return { userId: user!.id, sid };
}

/** Revokes in the database only, without telling anyone: what a cache would not see. */
const revokeSilently = (sid: string) =>
  database.db.update(refreshTokens).set({ revokedAt: new Date() }).where(eq(refreshTokens.familyId, sid));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the session cache', () => {
  it('answers from memory within its lifetime (no database round trip), asks again after it', async () => {
    const sessions = new Sessions({ db: database.db, pubsub: new MemoryPubSub(), log, ttlMs: 2000 });
    const { userId, sid } = await session();
    expect(await sessions.check(userId, sid)).toEqual({ role: 'user' });
    await revokeSilently(sid);
    expect(await sessions.check(userId, sid)).toEqual({ role: 'user' });
    await sleep(2100);
    expect(await sessions.check(userId, sid)).toBeNull();
  });

  it('refuses a session of another user, an unknown session and a missing user', async () => {
    const sessions = new Sessions({ db: database.db, pubsub: new MemoryPubSub(), log });
    const a = await session();
    const b = await session();
    expect(await sessions.check(a.userId, a.sid)).not.toBeNull();
    expect(await sessions.check(b.userId, a.sid)).toBeNull();
    expect(await sessions.check(a.userId, crypto.randomUUID())).toBeNull();
    expect(await sessions.check(crypto.randomUUID(), crypto.randomUUID())).toBeNull();
  });

  it('forgets at once what another replica announces: one session, or every session of a user', async () => {
    const bus = new MemoryPubSub();
    const here = new Sessions({ db: database.db, pubsub: bus, log });
    const there = new Sessions({ db: database.db, pubsub: bus, log });
    await here.listen();
    const one = await session();
    const two = await session();
    expect(await here.check(one.userId, one.sid)).not.toBeNull();
    expect(await here.check(two.userId, two.sid)).not.toBeNull();
    await revokeSilently(one.sid);
    await there.endSession(one.sid);
    await sleep(10);
    expect(await here.check(one.userId, one.sid)).toBeNull();
    await database.db.update(users).set({ bannedAt: new Date() }).where(eq(users.id, two.userId));
    await there.endUserSessions(two.userId);
    await sleep(10);
    expect(await here.check(two.userId, two.sid)).toBeNull();
    await here.close();
  });

  it('keeps at most maxEntries sessions (least recently used forgotten first)', async () => {
    const sessions = new Sessions({ db: database.db, pubsub: new MemoryPubSub(), log, maxEntries: 2 });
    const [a, b, c] = [await session(), await session(), await session()];
    await sessions.check(a.userId, a.sid);
    await sessions.check(b.userId, b.sid);
    await sessions.check(a.userId, a.sid); // a is now the most recent
    await sessions.check(c.userId, c.sid); // b goes
    await revokeSilently(a.sid);
    await revokeSilently(b.sid);
    expect(await sessions.check(a.userId, a.sid)).toEqual({ role: 'user' });
    expect(await sessions.check(b.userId, b.sid)).toBeNull();
  });

  it('does not cache a lookup that an invalidation overtook', async () => {
    const sessions = new Sessions({ db: database.db, pubsub: new MemoryPubSub(), log });
    const { userId, sid } = await session();
    const running = sessions.check(userId, sid);
    await revokeSilently(sid);
    await sessions.endSession(sid);
    await running;
    expect(await sessions.check(userId, sid)).toBeNull();
  });

  it('still ends the session here when pub/sub cannot publish', async () => {
    const broken = new MemoryPubSub();
    broken.publish = () => Promise.reject(new Error('down'));
    const warnings: unknown[] = [];
    const sessions = new Sessions({ db: database.db, pubsub: broken, log: { warn: (o: unknown) => warnings.push(o) } });
    const { userId, sid } = await session();
    expect(await sessions.check(userId, sid)).not.toBeNull();
    await revokeSilently(sid);
    await sessions.endSession(sid);
    expect(await sessions.check(userId, sid)).toBeNull();
    expect(warnings).toHaveLength(1);
  });
});
