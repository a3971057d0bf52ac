import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { and, asc, eq, gt } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import type { Chat, SceneInvite } from '@reverie/shared';
import { chats, messages } from '../../db/schema.js';
import { MemoryPubSub } from '../../providers/pubsub/index.js';
import { startChildReplica } from '../../../test/child-replica.js';
import { startFakeOpenAi, type FakeOpenAi } from '../../../test/fake-openai.js';
import { createBot, createUser } from '../../../test/factories.js';
import { createTestApp, createTestDatabase, type TestApp } from '../../../test/helpers.js';
import { ScriptedLlm } from '../../../test/scripted-llm.js';
import { openStream } from '../../../test/sse-client.js';

/**
 * A scene shared by two people on two replicas of one database (docs/groups.md "Scene events"):
 * on PostgreSQL each app has its own pub/sub (LISTEN/NOTIFY, or Redis when REDIS_URL is set)
 * and shared cache like a real replica; on PGlite both share one in-process bus.
 */
const testDb = inject('testDb');

interface Replica extends TestApp {
  url: string;
  llm: ScriptedLlm;
}

const open: TestApp[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) await t.app.close().catch(() => undefined);
});

/** Short lease timings, so that a dead writer is found within seconds. */
const LIVE = { leaseMs: 1500, renewEveryMs: 300, sweepEveryMs: 300, pollEveryMs: 200 };

async function replicas(): Promise<[Replica, Replica]> {
  const database = await createTestDatabase();
  const pubsub = testDb.kind === 'pglite' ? new MemoryPubSub() : undefined;
  const make = async () => {
    const llm = new ScriptedLlm();
    const t = await createTestApp({
      database,
      pubsub,
      llm,
      env: { LLM_TIMEOUT_S: '30', CHAT_MESSAGES_PER_MINUTE: '100' },
      liveReplies: LIVE,
    });
    open.push(t);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    return { ...t, llm, url: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}` };
  };
  return [await make(), await make()];
}

const deltaText = (events: Array<{ event: string; data: Record<string, unknown> }>, id: string) =>
  events
    .filter((e) => e.event === 'delta' && e.data.message_id === id)
    .map((e) => e.data.text as string)
    .join('');

describe('a scene on two replicas', () => {
  it('two people see each other’s messages live and one character reply streamed to both', async () => {
    const [a, b] = await replicas();
    const db = a.database.db;
    const owner = await createUser(a.app, db, { name: 'Olga' });
    const member = await createUser(a.app, db, { name: 'Mara' });
    const ana = await createBot(db, { name: 'Ana' });
    const bea = await createBot(db, { name: 'Bea' });
    const created = await a.app.inject({
      method: 'POST',
      url: '/api/chat/group',
      headers: owner.auth,
      payload: { bot_ids: [ana.id, bea.id] },
    });
    const chat = created.json<Chat>();
    const link = (
      await a.app.inject({
        method: 'POST',
        url: `/api/chat/${chat.id}/scene/invites`,
        headers: owner.auth,
        payload: {},
      })
    ).json<SceneInvite>();
    const joined = await b.app.inject({
      method: 'POST',
      url: `/api/scene-invites/${link.code}/join`,
      headers: member.auth,
      payload: { adult_confirmed: true },
    });
    expect(joined.statusCode).toBe(201);

    // The owner watches the scene on A, the member on B.
    const ownerScene = await openStream(a.url, owner.auth, `/api/chat/${chat.id}/scene/events`);
    const memberScene = await openStream(b.url, member.auth, `/api/chat/${chat.id}/scene/events`);
    // Presence: on PostgreSQL the shared cache (Redis or the database) sees both from either replica.
    if (testDb.kind !== 'pglite')
      await ownerScene.readUntil((e) => e.event === 'presence' && (e.data.online as string[]).includes(member.user.id));
    else await ownerScene.readUntil((e) => e.event === 'presence');

    // The member writes on B; the reply is generated on B and streams to both.
    const pieces = Array.from({ length: 10 }, (_, i) => `t${i} `);
    b.llm.script = { mode: 'pieces', pieces, delayMs: 40 };
    const send = await openStream(b.url, member.auth, `/api/chat/${chat.id}/messages`, {
      client_id: randomUUID(),
      text: 'Ana, tell us a story',
    });
    const seenUser = await ownerScene.readUntil(
      (e) => e.event === 'message' && (e.data.message as { role: string }).role === 'user',
    );
    expect(seenUser.data.message).toMatchObject({ text: 'Ana, tell us a story', speaker: { name: 'Mara' } });
    const started = await ownerScene.readUntil(
      (e) => e.event === 'message' && (e.data.message as { role: string }).role === 'bot',
    );
    const reply = started.data.message as { id: string; speaker: { bot_id: string } };
    expect(reply.speaker.bot_id).toBe(ana.id);
    // The owner follows the reply on A (its writer is B).
    const follow = await openStream(a.url, owner.auth, `/api/chat/${chat.id}/stream/${reply.id}`);
    const [followed, sent] = await Promise.all([follow.readAll(), send.readAll()]);
    const snapshot = (followed[0]!.data.text as string) ?? '';
    expect(snapshot + deltaText(followed, reply.id)).toBe(pieces.join(''));
    expect(deltaText(sent, reply.id)).toBe(pieces.join(''));
    // The final message reaches both scenes.
    const final = (e: { event: string; data: Record<string, unknown> }) =>
      e.event === 'message' &&
      (e.data.message as { id: string; state: string }).id === reply.id &&
      (e.data.message as { state: string }).state === 'done';
    await ownerScene.readUntil(final);
    await memberScene.readUntil(final);
    // One reply at a time per scene, whoever sends, on any replica: the owner's send on A while
    // a reply is live is refused.
    b.llm.script = { mode: 'then-hang', pieces: ['...'] };
    const hanging = await openStream(b.url, member.auth, `/api/chat/${chat.id}/messages`, {
      client_id: randomUUID(),
      text: 'Bea, and you?',
    });
    await hanging.readUntil((e) => e.event === 'delta');
    const second = await a.app.inject({
      method: 'POST',
      url: `/api/chat/${chat.id}/messages`,
      headers: owner.auth,
      payload: { client_id: randomUUID(), text: 'me too' },
    });
    expect(second.statusCode).toBe(409);
    // The owner stops it from A.
    expect(
      (await a.app.inject({ method: 'POST', url: `/api/chat/${chat.id}/stop`, headers: owner.auth })).statusCode,
    ).toBe(204);
    await hanging.readAll();
    // Typing on A reaches the member on B.
    await a.app.inject({ method: 'POST', url: `/api/chat/${chat.id}/scene/typing`, headers: owner.auth });
    const typing = await memberScene.readUntil((e) => e.event === 'typing');
    expect(typing.data).toMatchObject({ user_id: owner.user.id, name: 'Olga' });
    ownerScene.abort();
    memberScene.abort();
    await a.app.replies.idle();
    await b.app.replies.idle();
  }, 60_000);
});

async function waitFor<T>(what: string, check: () => Promise<T | null | undefined | false>, ms = 15_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * "Continue" survives its writer's death (docs/groups.md "Across replicas"): replica A, a child
 * process, writes a turn and is killed with SIGKILL; B and C (this process, each with its own
 * pub/sub) race to end the dead reply, and the one that ends it starts the next turn — exactly
 * once — until the count is spent. PostgreSQL only (one process holds a PGlite database).
 */
describe.runIf(testDb.kind === 'postgres')('a "Continue" whose writer is killed with SIGKILL', () => {
  let fake: FakeOpenAi | undefined;
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await fake?.close();
  });

  it('goes on from another replica, each turn started once, until the count is spent', async () => {
    const slow = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ');
    fake = await startFakeOpenAi({ behaviour: { mode: 'slow', delayMs: 100, text: slow } });
    const [b, c] = await replicas();
    if (b.database.raw.kind !== 'postgres') throw new Error('PostgreSQL only');
    const a = await startChildReplica(
      b.database.raw.url,
      {
        LLM_PROVIDER: 'openai',
        LLM_BASE_URL: fake.url,
        LLM_MODEL: 'fake-model',
        JWT_SECRET: b.config.JWT_SECRET!,
        CHAT_MESSAGES_PER_MINUTE: '100',
        ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
      },
      LIVE,
    );
    children.push(a.child);
    const db = b.database.db;
    const owner = await createUser(b.app, db, { name: 'Olga' });
    const ana = await createBot(db, { name: 'Ana' });
    const bea = await createBot(db, { name: 'Bea' });
    const chat = (
      await b.app.inject({
        method: 'POST',
        url: '/api/chat/group',
        headers: owner.auth,
        payload: { bot_ids: [ana.id, bea.id] },
      })
    ).json<Chat>();
    // Ana speaks first (on B), so that the rule names every next speaker (Bea first).
    b.llm.script = { mode: 'pieces', pieces: ['Hello.'] };
    await (await openStream(b.url, owner.auth, `/api/chat/${chat.id}/scene/speak`, { bot_id: ana.id })).readAll();
    await b.app.replies.idle();
    for (const r of [b, c]) r.llm.script = { mode: 'pieces', pieces: ['Go', ' on.'], delayMs: 30 };

    // Three turns, the first written by A.
    const started = await fetch(`${a.url}/api/chat/${chat.id}/scene/continue`, {
      method: 'POST',
      headers: { ...owner.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ turns: 3 }),
    });
    expect(started.status).toBe(200);
    const { message_id: dyingId } = (await started.json()) as { message_id: string };
    const follow = await openStream(a.url, owner.auth, `/api/chat/${chat.id}/stream/${dyingId}`);
    await follow.readUntil((e) => e.event === 'delta');
    follow.abort();
    // Past its first save (every 2 s), then A dies mid-reply.
    await new Promise((resolve) => setTimeout(resolve, 2600));
    a.child.kill('SIGKILL');

    const row = async (id: string) => (await db.select().from(messages).where(eq(messages.id, id)))[0]!;
    const dead = await waitFor('the dead reply to be ended', async () => {
      const r = await row(dyingId);
      return r.state !== 'streaming' ? r : null;
    });
    expect(dead).toMatchObject({ state: 'failed', errorCode: 'interrupted' });
    expect(dead.speaker).toMatchObject({ kind: 'character', bot_id: bea.id });
    // The two turns left are taken on B or C, one after the other, then it stops.
    const after = () =>
      db
        .select()
        .from(messages)
        .where(and(eq(messages.chatId, chat.id), gt(messages.seq, dead.seq)))
        .orderBy(asc(messages.seq));
    const turns = await waitFor('the two turns left', async () => {
      const rows = await after();
      return rows.length >= 2 && rows.every((r) => r.state === 'done') ? rows : null;
    });
    await b.app.replies.idle();
    await c.app.replies.idle();
    await new Promise((resolve) => setTimeout(resolve, LIVE.sweepEveryMs * 4));
    const final = await after();
    expect(final).toHaveLength(2);
    // Never the same character twice in a row.
    expect(new Set(final.map((r) => (r.speaker as { bot_id: string }).bot_id)).size).toBe(2);
    expect(final.map((r) => r.text)).toEqual(['Go on.', 'Go on.']);
    expect(turns[0]!.role).toBe('bot');
    const [left] = await db.select({ n: chats.continueRemaining }).from(chats).where(eq(chats.id, chat.id));
    expect(left!.n).toBe(0);
  }, 120_000);
});
