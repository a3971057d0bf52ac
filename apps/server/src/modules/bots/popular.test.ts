import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotPopularList } from '@reverie/shared';
import { bots } from '../../db/schema.js';
import { createBot, createChat, createUser } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';

// "Popular this week" (issue 30): ranked from real chats of the last 7 days, computed by one
// replica and shared through the cache with the others; on PGlite and PostgreSQL (TEST_DB).

let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  a = await createTestApp();
  // A second replica on the same database (and so the same shared cache).
  b = await createTestApp({ database: a.database });
});
afterAll(async () => {
  await b.app.close();
});

const popular = async (t: TestApp, headers: Record<string, string> = {}) => {
  const res = await t.app.inject({ url: '/api/bots/popular', headers });
  expect(res.statusCode).toBe(200);
  return res.json<BotPopularList>().results.map((bot) => [bot.name, bot.people_week]);
};

describe('popular this week', () => {
  it('ranks listed characters by the people who chatted this week, shared by the replicas', async () => {
    const db = a.database.db;
    const people = await Promise.all([0, 1, 2].map(() => createUser(a.app, db)));
    const star = await createBot(db, { name: 'Star' });
    const runnerUp = await createBot(db, { name: 'Runner Up' });
    const old = await createBot(db, { name: 'Old Flame' });
    const hidden = await createBot(db, { name: 'Hidden', visibility: 'private', authorId: people[0]!.user.id });
    for (const person of people) await createChat(db, { userId: person.user.id, botId: star.id });
    // Two chats of one person count once.
    await createChat(db, { userId: people[0]!.user.id, botId: runnerUp.id });
    await createChat(db, { userId: people[0]!.user.id, botId: runnerUp.id });
    await createChat(db, { userId: people[1]!.user.id, botId: runnerUp.id });
    // Chats older than a week, and a private character's, do not count.
    const longAgo = new Date(Date.now() - 8 * 24 * 3_600_000);
    for (const person of people)
      await createChat(db, { userId: person.user.id, botId: old.id, createdAt: longAgo, updatedAt: longAgo });
    for (const person of people) await createChat(db, { userId: person.user.id, botId: hidden.id });

    expect(await popular(a)).toEqual([
      ['Star', 3],
      ['Runner Up', 2],
    ]);
    // The other replica answers the same ranking from the shared cache: a chat started since
    // does not reorder it until the cache period ends (the ranking is not recomputed per request).
    const more = await Promise.all([0, 1, 2, 3].map(() => createUser(a.app, db)));
    for (const person of more) await createChat(db, { userId: person.user.id, botId: runnerUp.id });
    expect(await popular(b, people[2]!.auth)).toEqual([
      ['Star', 3],
      ['Runner Up', 2],
    ]);
    // A character that leaves the catalogue drops out at once (its row is read fresh).
    await db.update(bots).set({ visibility: 'private' }).where(eq(bots.id, star.id));
    expect(await popular(b)).toEqual([['Runner Up', 2]]);
  });
});
