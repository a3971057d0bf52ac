import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { UNREAD_COUNT_CAP, type Chat } from '@reverie/shared';
import { messages } from '../../db/schema.js';
import { MemoryPubSub } from '../../providers/pubsub/index.js';
import { createBot, createChat, createMessage, createUser } from '../../../test/factories.js';
import { createTestApp, createTestDatabase, type TestApp } from '../../../test/helpers.js';
import { ScriptedLlm } from '../../../test/scripted-llm.js';
import { openStream } from '../../../test/sse-client.js';

/**
 * Unread state (issue 31): counts per chat on the chats list, cleared when read on any device,
 * and the user's events across two apps on one database (each with its own pub/sub on
 * PostgreSQL — LISTEN/NOTIFY, or Redis when REDIS_URL is set; one in-process bus on PGlite).
 */
const testDb = inject('testDb');

const open: TestApp[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) await t.app.close().catch(() => undefined);
});

let shared: TestApp['database'] | undefined;

async function twoApps() {
  const database = (shared ??= await createTestDatabase());
  const pubsub = testDb.kind === 'pglite' ? new MemoryPubSub() : undefined;
  const make = async () => {
    const llm = new ScriptedLlm();
    const t = await createTestApp({ database, pubsub, llm, env: { CHAT_MESSAGES_PER_MINUTE: '100' } });
    open.push(t);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    return { ...t, llm, url: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}` };
  };
  return [await make(), await make()] as const;
}

const list = async (t: TestApp, auth: { authorization: string }) =>
  (await t.app.inject({ method: 'GET', url: '/api/chats/available', headers: auth })).json<Chat[]>();

describe('unread counts', () => {
  it('counts character messages after the last read, sorts by latest activity, and clears on read', async () => {
    const [a] = await twoApps();
    const { auth, user } = await createUser(a.app, a.database.db);
    const bot = await createBot(a.database.db);
    const old = await createChat(a.database.db, {
      userId: user.id,
      botId: bot.id,
      updatedAt: new Date(Date.now() - 60_000),
    });
    const recent = await createChat(a.database.db, { userId: user.id, botId: bot.id });
    await createMessage(a.database.db, old, { role: 'user', text: 'hi' });
    await createMessage(a.database.db, old, { role: 'bot', text: 'one' });
    await createMessage(a.database.db, old, { role: 'bot', text: 'two' });
    // A reply being written by a live replica (a lease that runs: no sweep ends it meanwhile).
    await createMessage(a.database.db, old, {
      role: 'bot',
      text: 'streaming',
      state: 'streaming',
      owner: randomUUID(),
      leaseUntil: new Date(Date.now() + 600_000),
    });
    await createMessage(a.database.db, old, { role: 'bot', text: 'not shown', selected: false });
    const chats = await list(a, auth);
    expect(chats.map((c) => [c.id, c.unread])).toEqual([
      [recent.id, 0],
      [old.id, 2],
    ]);

    const other = await createUser(a.app, a.database.db);
    expect(
      (await a.app.inject({ method: 'POST', url: `/api/chat/${old.id}/read`, headers: other.auth })).statusCode,
    ).toBe(404);
    expect((await a.app.inject({ method: 'POST', url: '/api/chat/not-a-uuid/read', headers: auth })).statusCode).toBe(
      404,
    );
    expect((await a.app.inject({ method: 'POST', url: `/api/chat/${old.id}/read` })).statusCode).toBe(401);

    const total = await a.app.inject({ method: 'GET', url: '/api/chats/unread', headers: auth });
    expect(total.json()).toEqual({ total: 2 });
    const read = await a.app.inject({ method: 'POST', url: `/api/chat/${old.id}/read`, headers: auth });
    expect(read.json()).toEqual({ chat_id: old.id, unread_total: 0 });
    expect((await list(a, auth)).map((c) => c.unread)).toEqual([0, 0]);
    await createMessage(a.database.db, old, { role: 'bot', text: 'three' });
    expect((await list(a, auth)).find((c) => c.id === old.id)?.unread).toBe(1);
  });

  it('counts stop at UNREAD_COUNT_CAP: a never-read long chat answers the cap, per chat and in total', async () => {
    const [a] = await twoApps();
    const { auth, user } = await createUser(a.app, a.database.db);
    const bot = await createBot(a.database.db);
    const long = await createChat(a.database.db, { userId: user.id, botId: bot.id });
    const short = await createChat(a.database.db, { userId: user.id, botId: bot.id });
    await a.database.db.insert(messages).values(
      Array.from({ length: UNREAD_COUNT_CAP + 30 }, (_, i) => ({
        chatId: long.id,
        userId: user.id,
        role: 'bot' as const,
        kind: 1,
        text: `line ${i}`,
      })),
    );
    await createMessage(a.database.db, short, { role: 'bot', text: 'one' });
    const counts = new Map((await list(a, auth)).map((c) => [c.id, c.unread]));
    expect(counts.get(long.id)).toBe(UNREAD_COUNT_CAP);
    expect(counts.get(short.id)).toBe(1);
    const total = await a.app.inject({ method: 'GET', url: '/api/chats/unread', headers: auth });
    expect(total.json()).toEqual({ total: UNREAD_COUNT_CAP });
    const read = await a.app.inject({ method: 'POST', url: `/api/chat/${long.id}/read`, headers: auth });
    expect(read.json()).toEqual({ chat_id: long.id, unread_total: 1 });
  });

  it("a chat read through one app is cleared on the other app's open stream (pub/sub across replicas)", async () => {
    const [a, b] = await twoApps();
    const { auth, user } = await createUser(a.app, a.database.db);
    const bot = await createBot(a.database.db);
    const chat = await createChat(a.database.db, { userId: user.id, botId: bot.id });
    await createMessage(a.database.db, chat, { role: 'bot', text: 'Are you there?' });

    expect((await a.app.inject({ method: 'GET', url: '/api/events' })).statusCode).toBe(401);
    const events = await openStream(a.url, auth, '/api/events');
    expect(events.response.headers.get('content-type')).toMatch(/text\/event-stream/);
    const read = await b.app.inject({ method: 'POST', url: `/api/chat/${chat.id}/read`, headers: auth });
    expect(read.statusCode).toBe(200);
    const event = await events.readUntil((e) => e.event === 'read');
    expect(event.data).toEqual({ type: 'read', chat_id: chat.id, unread_total: 0 });

    // A reply finished on B is announced on A's stream with the new total.
    b.llm.script = { mode: 'pieces', pieces: ['Hello ', 'again'], delayMs: 5 };
    const sent = await openStream(b.url, auth, `/api/chat/${chat.id}/messages`, {
      client_id: randomUUID(),
      text: 'Hi',
    });
    await sent.readAll();
    const unread = await events.readUntil((e) => e.event === 'unread');
    expect(unread.data).toEqual({ type: 'unread', chat_id: chat.id, unread_total: 1 });
    events.abort();
    expect((await list(b, auth))[0]?.unread).toBe(1);
  });
});
