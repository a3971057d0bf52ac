import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client.js';
import { messages, users } from '../../db/schema.js';
import { createTestDatabase, openReplicaDatabase } from '../../../test/helpers.js';
import { createBot, createChat, createMessage } from '../../../test/factories.js';
import { liveReplyValues } from './live-replies.repository.js';
import { ReplySaves } from './reply-saves.js';

let database: DatabaseHandle;
let second: DatabaseHandle;

beforeAll(async () => {
  database = await createTestDatabase();
  second = await openReplicaDatabase(database);
});

/** A chat with `count` live replies owned by replica `owner` (each in its own chat: one live reply per chat). */
async function liveReplies(count: number, owner = 'replica-a') {
  const db = database.db;
  const suffix = randomUUID().slice(0, 8);
  const [user] = await db
    .insert(users)
    .values({
      username: `saves_${suffix}`,
      email: `saves_${suffix}@example.test`,
      passwordHash: '!test-only',
      name: 'Saves',
    })
    .returning();
  const bot = await createBot(db);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const chat = await createChat(db, { userId: user!.id, botId: bot.id });
    const reply = await createMessage(db, chat, {
      role: 'bot',
      state: 'streaming',
      text: '',
      ...liveReplyValues(owner, 15_000),
    });
    ids.push(reply.id);
  }
  return ids;
}

const rowsOf = (ids: string[]) =>
  database.db
    .select({
      id: messages.id,
      text: messages.text,
      state: messages.state,
      errorCode: messages.errorCode,
      owner: messages.owner,
      leaseUntil: messages.leaseUntil,
      tokens: messages.tokens,
    })
    .from(messages)
    .where(inArray(messages.id, ids));

describe('ReplySaves (the group commit of reply saves)', () => {
  it("saves many replies' final states at once, each exactly as asked; a final save ends the live reply", async () => {
    const ids = await liveReplies(6);
    const saves = new ReplySaves(database.db);
    await Promise.all(
      ids.map((id, i) =>
        i % 3 === 2
          ? saves.final(id, { text: `partial ${i}`, state: 'failed', errorCode: 'timeout' })
          : saves.final(id, {
              text: `reply ${i} — “quoted” \\ text`,
              state: i % 3 === 0 ? 'done' : 'stopped',
              errorCode: null,
            }),
      ),
    );
    const rows = new Map((await rowsOf(ids)).map((row) => [row.id, row]));
    ids.forEach((id, i) => {
      const row = rows.get(id)!;
      expect(row.text).toBe(i % 3 === 2 ? `partial ${i}` : `reply ${i} — “quoted” \\ text`);
      expect(row.state).toBe(['done', 'stopped', 'failed'][i % 3]);
      expect(row.errorCode).toBe(i % 3 === 2 ? 'timeout' : null);
      expect(row.owner).toBeNull();
      expect(row.leaseUntil).toBeNull();
      expect(row.tokens).toBeGreaterThan(0);
    });
  });

  it('a save while streaming keeps the reply live and renews its lease', async () => {
    const [id] = await liveReplies(1);
    const [before] = await rowsOf([id!]);
    const saves = new ReplySaves(database.db);
    await saves.progress(id!, 'so far', 60_000);
    const [row] = await rowsOf([id!]);
    expect(row).toMatchObject({ text: 'so far', state: 'streaming', owner: 'replica-a' });
    expect(row!.leaseUntil!.getTime()).toBeGreaterThan(before!.leaseUntil!.getTime() + 30_000);
  });

  it('close() writes every save asked for before it answers (no final text lost at shutdown)', async () => {
    const ids = await liveReplies(4);
    const saves = new ReplySaves(database.db);
    for (const id of ids) void saves.final(id, { text: `last words of ${id}`, state: 'done', errorCode: null });
    await saves.close();
    for (const row of await rowsOf(ids)) {
      expect(row.text).toBe(`last words of ${row.id}`);
      expect(row.state).toBe('done');
    }
  });

  it('two replicas saving at the same moment each write their own replies', async () => {
    const mine = await liveReplies(3, 'replica-a');
    const theirs = await liveReplies(3, 'replica-b');
    const a = new ReplySaves(database.db);
    const b = new ReplySaves(second.db);
    await Promise.all([
      ...mine.map((id) => a.final(id, { text: `a ${id}`, state: 'done', errorCode: null })),
      ...theirs.map((id) => b.final(id, { text: `b ${id}`, state: 'done', errorCode: null })),
    ]);
    for (const row of await rowsOf([...mine, ...theirs]))
      expect(row.text).toBe(`${mine.includes(row.id) ? 'a' : 'b'} ${row.id}`);
  });

  it('a text with a lone surrogate (a reply cut inside an emoji) is saved, not refused', async () => {
    const [id] = await liveReplies(1);
    const saves = new ReplySaves(database.db);
    await saves.final(id!, { text: 'cut here \ud83d', state: 'stopped', errorCode: null });
    const [row] = await rowsOf([id!]);
    expect(row).toMatchObject({ text: 'cut here \ufffd', state: 'stopped' });
  });

  it('a save of an unknown reply changes nothing else', async () => {
    const [id] = await liveReplies(1);
    const saves = new ReplySaves(database.db);
    await Promise.all([
      saves.final(randomUUID(), { text: 'nobody', state: 'done', errorCode: null }),
      saves.final(id!, { text: 'mine', state: 'done', errorCode: null }),
    ]);
    const [row] = await database.db.select({ text: messages.text }).from(messages).where(eq(messages.id, id!));
    expect(row!.text).toBe('mine');
  });
});
