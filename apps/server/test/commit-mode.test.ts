import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from './helpers.js';
import { createBot, createChat } from './factories.js';
import { insertMessages, saveReplies } from '../src/modules/chats/messages.repository.js';
import { PostgresWindowCounter } from '../src/providers/limits/postgres.counter.js';
import { rowsOf, type Database, type DatabaseHandle } from '../src/db/client.js';
import { users } from '../src/db/schema.js';
import { commitMode } from '../src/db/commit-mode.js';

let database: DatabaseHandle;

beforeAll(async () => {
  database = await createTestDatabase();
});

const setting = async (db: Database) =>
  rowsOf<{ synchronous_commit: string }>(await db.execute(sql`show synchronous_commit`))[0]!.synchronous_commit;

type Recorded = { text: string; params: unknown[]; prepared: boolean };

/**
 * The database, with every statement it runs recorded (and still run): its text, its values
 * and whether it runs as a prepared statement (drizzle prepares only a named query).
 */
function recording(db: Database): { db: Database; statements: Recorded[] } {
  const statements: Recorded[] = [];
  const session = (db as unknown as { session: object }).session;
  const recordingSession = new Proxy(session, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (key !== 'prepareQuery' || typeof value !== 'function') return value;
      return (query: { sql: string; params: unknown[] }, ...rest: unknown[]) => {
        statements.push({ text: query.sql, params: query.params, prepared: rest[1] !== undefined });
        return (value as (...args: unknown[]) => unknown).call(receiver, query, ...rest);
      };
    },
  });
  const proxy = new Proxy(db, {
    get(target, key, receiver) {
      return key === 'session' ? recordingSession : Reflect.get(target, key, receiver);
    },
  });
  return { db: proxy, statements };
}

/** Whether a recorded statement asked for a relaxed commit, and read its `commit_mode` so that it runs. */
function relaxedIn(statement: Recorded): boolean {
  expect(statement.text).toMatch(/with commit_mode as \(/);
  expect(statement.text).toMatch(/,\s*commit_mode\b/); // in the FROM list: the CTE is evaluated
  const index = Number(/case when \$(\d+)::boolean/.exec(statement.text)![1]) - 1;
  return statement.params[index] === true;
}

describe('commitMode', () => {
  it('relaxes only the statement that asks, never the connection', async () => {
    const before = await setting(database.db);
    const inside = rowsOf<{ mode: string; now: string }>(
      await database.db.execute(
        sql`with ${commitMode(true)} select mode, current_setting('synchronous_commit') as now from commit_mode`,
      ),
    )[0]!;
    expect(inside).toEqual({ mode: 'off', now: 'off' });
    expect(await setting(database.db)).toBe(before);
    // Not relaxed: the server's own setting.
    const kept = rowsOf<{ now: string }>(
      await database.db.execute(
        sql`with ${commitMode(false)} select current_setting('synchronous_commit') as now from commit_mode`,
      ),
    )[0]!;
    expect(kept.now).toBe(before);
  });

  it("is asked for by a send's insert, the replies' saves and the limits' counts, only when relaxed", async () => {
    const [user] = await database.db
      .insert(users)
      .values({
        username: `commit_${randomUUID().slice(0, 8)}`,
        email: `commit_${randomUUID().slice(0, 8)}@example.test`,
        passwordHash: '!test-only',
        name: 'Commit',
      })
      .returning();
    const bot = await createBot(database.db);
    for (const relaxed of [true, false]) {
      const chat = await createChat(database.db, { userId: user!.id, botId: bot.id });
      const { db, statements } = recording(database.db);
      const [reply] = await insertMessages(
        db,
        chat.id,
        [
          {
            chatId: chat.id,
            userId: user!.id,
            role: 'bot',
            state: 'streaming',
            text: '',
            owner: 'replica-a',
            leaseMs: 15_000,
          },
        ],
        {},
        relaxed,
      );
      await saveReplies(
        db,
        [{ messageId: reply!.id, text: 'Hello', state: 'done', errorCode: null, updatedAt: new Date() }],
        relaxed,
      );
      await new PostgresWindowCounter(db, 'commit-test:', relaxed).hit(`k-${relaxed}`, 60_000);
      expect(statements.map(relaxedIn)).toEqual([relaxed, relaxed, relaxed]);
      // Each is a prepared statement (one round trip, planned once per connection: db/prepared.ts).
      expect(statements.map((s) => s.prepared)).toEqual([true, true, true]);
    }
  });
});
