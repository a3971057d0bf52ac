import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import type { Chat, Message } from '@reverie/shared';
import { messages } from '../../db/schema.js';
import { MemoryPubSub } from '../../providers/pubsub/index.js';
import { createBot, createChat, createMessage, createUser } from '../../../test/factories.js';
import { startChildReplica } from '../../../test/child-replica.js';
import { startFakeOpenAi, type FakeOpenAi } from '../../../test/fake-openai.js';
import { createTestApp, createTestDatabase, type TestApp } from '../../../test/helpers.js';
import { ScriptedLlm } from '../../../test/scripted-llm.js';
import { openStream } from '../../../test/sse-client.js';

/**
 * Two replicas on one database (docs/chat.md "Live replies across replicas"). On PostgreSQL
 * each app picks its pub/sub like a real replica (LISTEN/NOTIFY, or Redis when REDIS_URL is
 * set: both are run); on PGlite (one process only) both share one in-process bus. The owner
 * killed with SIGKILL runs in a child process (PostgreSQL only).
 */
const testDb = inject('testDb');
const redisUrl = process.env.REDIS_URL;

/** Short lease timings, so that a dead owner is found within seconds. */
const LIVE = { leaseMs: 1500, renewEveryMs: 300, sweepEveryMs: 300, pollEveryMs: 200 };

interface Replica extends TestApp {
  url: string;
  llm: ScriptedLlm;
}

async function replica(base: { database?: TestApp['database']; pubsub?: MemoryPubSub }, env: Record<string, string>) {
  const llm = new ScriptedLlm();
  const t = await createTestApp({
    ...base,
    llm,
    env: { LLM_TIMEOUT_S: '30', CHAT_MESSAGES_PER_MINUTE: '100', ...env },
    liveReplies: LIVE,
  });
  open.push(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { ...t, llm, url: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}` } satisfies Replica;
}

/** Apps of the running test: closed after it, so that PostgreSQL's connections suffice. */
const open: TestApp[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) await t.app.close().catch(() => undefined);
});

/** One database for all the tests (each test has chats of its own). */
let shared: TestApp['database'] | undefined;

async function replicas(env: Record<string, string>): Promise<[Replica, Replica]> {
  const database = (shared ??= await createTestDatabase());
  const pubsub = testDb.kind === 'pglite' ? new MemoryPubSub() : undefined;
  return [await replica({ database, pubsub }, env), await replica({ database, pubsub }, env)];
}

async function newChat(r: Replica) {
  const { auth, user } = await createUser(r.app, r.database.db);
  const bot = await createBot(r.database.db);
  const res = await r.app.inject({
    method: 'POST',
    url: '/api/chat/create',
    headers: auth,
    payload: { botID: bot.id },
  });
  expect(res.statusCode).toBe(201);
  return { auth, user, bot, chat: res.json<Chat>() };
}

const isFinal = (e: { event: string; data: { state?: string } }) =>
  e.event === 'bot_message' && e.data.state !== 'streaming';

async function waitFor<T>(what: string, check: () => Promise<T | null | undefined | false>, ms = 5000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function replyRow(r: Replica, id: string) {
  const [row] = await r.database.db.select().from(messages).where(eq(messages.id, id));
  return row!;
}

function scenario(name: string, env: () => Record<string, string>, enabled = true) {
  describe.runIf(enabled)(name, () => {
    it('a reply started on A and re-attached on B streams live to the end, the same text', async () => {
      const [a, b] = await replicas(env());
      const { auth, chat } = await newChat(a);
      const pieces = Array.from({ length: 12 }, (_, i) => `w${i} `);
      a.llm.script = { mode: 'pieces', pieces, delayMs: 60 };
      const started = await openStream(a.url, auth, `/api/chat/${chat.id}/messages`, {
        client_id: randomUUID(),
        text: 'Tell me',
      });
      const first = await started.readUntil((e) => e.event === 'delta');
      const id = first.data.message_id as string;
      started.abort();

      const attached = await openStream(b.url, auth, `/api/chat/${chat.id}/stream/${id}`);
      const events = await attached.readAll();
      const snapshot = events[0]!;
      expect(snapshot).toMatchObject({ event: 'bot_message', data: { id, state: 'streaming' } });
      const text =
        (snapshot.data.text as string) +
        events
          .filter((e) => e.event === 'delta')
          .map((e) => e.data.text as string)
          .join('');
      expect(text).toBe(pieces.join(''));
      expect(events.filter((e) => e.event === 'delta').length).toBeGreaterThan(0);
      expect(events.at(-1)).toMatchObject({ event: 'bot_message', data: { id, state: 'done', text: pieces.join('') } });
    });

    it('a send or regenerate on B while A streams in the same chat is a 409; a swipe too', async () => {
      const [a, b] = await replicas(env());
      const { auth, chat } = await newChat(a);
      a.llm.script = { mode: 'then-hang', pieces: ['Thinking'] };
      const live = await openStream(a.url, auth, `/api/chat/${chat.id}/messages`, {
        client_id: randomUUID(),
        text: 'First',
      });
      const first = await live.readUntil((e) => e.event === 'delta');
      const send = await b.app.inject({
        method: 'POST',
        url: `/api/chat/${chat.id}/messages`,
        headers: auth,
        payload: { client_id: randomUUID(), text: 'Second' },
      });
      expect(send.statusCode).toBe(409);
      expect(send.json()).toMatchObject({ code: 'generation_in_progress' });
      const greeting = (await b.app.inject({ url: `/api/chat/history/${chat.id}`, headers: auth })).json<{
        results: Message[];
      }>().results;
      const regenerate = await b.app.inject({
        method: 'POST',
        url: `/api/chat/${chat.id}/messages/${first.data.message_id}/regenerate`,
        headers: auth,
      });
      expect(regenerate.statusCode).toBe(409);
      expect(greeting.filter((m) => m.role === 'user')).toHaveLength(1);
      // One live reply in the chat, by the database's index.
      const live_ = await a.database.db.select().from(messages).where(eq(messages.state, 'streaming'));
      expect(live_.filter((m) => m.chatId === chat.id)).toHaveLength(1);
      await b.app.inject({ method: 'POST', url: `/api/chat/${chat.id}/stop`, headers: auth });
      live.abort();
    });

    it('an old reply regenerated on A, the page reloaded on B: streaming in its place, followed by id to its end', async () => {
      const [a, b] = await replicas(env());
      const { auth, user, chat } = await newChat(a);
      const owner = { id: chat.id, userId: user.id };
      // Forty exchanges, a minute apart: the third is far outside the newest page.
      const start = Date.now() + 60_000; // after the greeting
      const asked: string[] = [];
      let old = '';
      for (let i = 0; i < 40; i += 1) {
        const question = await createMessage(a.database.db, owner, {
          text: `question ${i}`,
          createdAt: new Date(start + i * 60_000),
        });
        const answer = await createMessage(a.database.db, owner, {
          role: 'bot',
          text: `answer ${i}`,
          replyTo: question.id,
          state: 'done',
          createdAt: new Date(start + i * 60_000 + 1000),
        });
        asked.push(question.createdAt.toISOString());
        if (i === 2) old = answer.id;
      }
      const pieces = Array.from({ length: 10 }, (_, i) => `again${i} `);
      a.llm.script = { mode: 'pieces', pieces, delayMs: 60 };
      const regen = await openStream(a.url, auth, `/api/chat/${chat.id}/messages/${old}/regenerate`, {});
      const first = await regen.readUntil((e) => e.event === 'delta');
      const id = first.data.message_id as string;
      regen.abort(); // the reload

      const page = async (query: string) =>
        (await b.app.inject({ url: `/api/chat/history/${chat.id}?${query}`, headers: auth })).json<{
          results: Message[];
        }>().results;
      // The newest page does not have it; the page around it (the reader's place) has it live, in its place.
      expect((await page('')).some((m) => m.id === id || m.id === old)).toBe(false);
      const around = await page(`at=${encodeURIComponent(asked[2]!)}`);
      const at = around.findIndex((m) => m.id === id);
      expect(around[at]).toMatchObject({ state: 'streaming', alt_count: 2 });
      expect(around[at + 1]).toMatchObject({ text: 'question 2' });
      expect(around[at - 1]).toMatchObject({ text: 'question 3' });
      expect(around.some((m) => m.id === old)).toBe(false);

      // Followed from B by its id (A writes it) to its end; then the history has it done there.
      const events = await (await openStream(b.url, auth, `/api/chat/${chat.id}/stream/${id}`)).readAll();
      expect(events[0]).toMatchObject({ event: 'bot_message', data: { id, state: 'streaming' } });
      expect(events.at(-1)).toMatchObject({ event: 'bot_message', data: { id, state: 'done', text: pieces.join('') } });
      const after = await page(`at=${encodeURIComponent(asked[2]!)}`);
      expect(after[after.findIndex((m) => m.id === id) + 1]).toMatchObject({ text: 'question 2' });
      expect(after.find((m) => m.id === id)).toMatchObject({ state: 'done', text: pieces.join('') });
    });

    it('stop on B ends the reply A is writing within a second, its text kept', async () => {
      const [a, b] = await replicas(env());
      const { auth, chat } = await newChat(a);
      a.llm.script = { mode: 'then-hang', pieces: ['Partial', ' text'] };
      const live = await openStream(a.url, auth, `/api/chat/${chat.id}/messages`, {
        client_id: randomUUID(),
        text: 'Talk',
      });
      await live.readUntil((e) => e.event === 'delta' && e.data.text.includes('text'));
      const started = Date.now();
      const stop = await b.app.inject({ method: 'POST', url: `/api/chat/${chat.id}/stop`, headers: auth });
      expect(stop.statusCode).toBe(204);
      expect(Date.now() - started).toBeLessThan(1000);
      const final = await live.readUntil(isFinal);
      expect(final.data).toMatchObject({ state: 'stopped', text: 'Partial text' });
      expect((await replyRow(b, final.data.id as string)).state).toBe('stopped');
    });

    it('a replica starting while another streams leaves its live reply alone', async () => {
      const [a] = await replicas(env());
      const { auth, chat } = await newChat(a);
      // The reply lasts until the test has looked (a fixed length ran out when a start was slow).
      let release!: () => void;
      a.llm.script = { mode: 'held', pieces: ['x', 'y'], release: new Promise((resolve) => (release = resolve)) };
      const live = await openStream(a.url, auth, `/api/chat/${chat.id}/messages`, {
        client_id: randomUUID(),
        text: 'Go on',
      });
      const first = await live.readUntil((e) => e.event === 'delta');
      const pubsub = a.app.pubsub instanceof MemoryPubSub ? a.app.pubsub : undefined;
      // A new replica comes up on the same database and sweeps a few times meanwhile.
      const c = await replica({ database: a.database, pubsub }, env());
      await new Promise((resolve) => setTimeout(resolve, LIVE.sweepEveryMs * 4));
      expect((await replyRow(c, first.data.message_id as string)).state).toBe('streaming');
      release();
      const final = await live.readUntil(isFinal);
      expect(final.data).toMatchObject({ state: 'done', text: 'xy' });
    });

    it("a reply whose owner stopped renewing is ended interrupted by another replica, and a watcher's stream ends", async () => {
      const [a, b] = await replicas(env());
      const { auth, user, bot } = await newChat(a);
      const chat = await createChat(a.database.db, { userId: user.id, botId: bot.id });
      const asked = await createMessage(a.database.db, chat, { text: 'Hi' });
      const orphan = await createMessage(a.database.db, chat, {
        role: 'bot',
        state: 'streaming',
        text: 'Half a sen',
        replyTo: asked.id,
      });
      // Owned by a replica that is gone, its lease running for one more second.
      await a.database.db
        .update(messages)
        .set({ owner: randomUUID(), leaseUntil: new Date(Date.now() + 1000) })
        .where(eq(messages.id, orphan.id));
      const watcher = await openStream(b.url, auth, `/api/chat/${chat.id}/stream/${orphan.id}`);
      const started = Date.now();
      const final = await watcher.readUntil(isFinal);
      expect(final.data).toMatchObject({ state: 'failed', error_code: 'interrupted', text: 'Half a sen' });
      expect(Date.now() - started).toBeLessThan(1000 + LIVE.leaseMs + 2000);
      // The chat is usable again on either replica.
      b.llm.script = { mode: 'pieces', pieces: ['Back'] };
      const again = await b.app.inject({
        method: 'POST',
        url: `/api/chat/${chat.id}/messages`,
        headers: auth,
        payload: { client_id: randomUUID(), text: 'Still there?' },
      });
      expect(again.statusCode).toBe(200);
    });
  });
}

scenario('two replicas', () => ({}));
scenario('two replicas over Redis', () => ({ REDIS_URL: redisUrl! }), testDb.kind === 'postgres' && !!redisUrl);

describe.runIf(testDb.kind === 'postgres')('the owner killed with SIGKILL', () => {
  let fake: FakeOpenAi;
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await fake?.close();
  });

  /** Starts a replica in a child process on the database; answers its address. */
  async function childReplica(databaseUrl: string, env: Record<string, string>) {
    const started = await startChildReplica(databaseUrl, env, LIVE);
    children.push(started.child);
    return started;
  }

  it('its reply is failed (interrupted) within the lease with the text last saved, and the chat is usable on B', async () => {
    const full = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    fake = await startFakeOpenAi({ behaviour: { mode: 'slow', delayMs: 100, text: full } });
    const b = await replica({}, { LLM_TIMEOUT_S: '30' });
    if (b.database.raw.kind !== 'postgres') throw new Error('PostgreSQL only');
    const env = {
      LLM_PROVIDER: 'openai',
      LLM_BASE_URL: fake.url,
      LLM_MODEL: 'fake-model',
      JWT_SECRET: b.config.JWT_SECRET!,
      ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    };
    const a = await childReplica(b.database.raw.url, env);
    const { auth, chat } = await newChat(b);
    const live = await openStream(a.url, auth, `/api/chat/${chat.id}/messages`, {
      client_id: randomUUID(),
      text: 'Count for me',
    });
    const first = await live.readUntil((e) => e.event === 'delta');
    const id = first.data.message_id as string;
    // Let it stream past its first save (every 2 s), then kill it mid-reply.
    await new Promise((resolve) => setTimeout(resolve, 2600));
    a.child.kill('SIGKILL');
    const killedAt = Date.now();
    live.abort();

    const ended = await waitFor(
      'the reply to be ended',
      async () => {
        const row = await replyRow(b, id);
        return row.state !== 'streaming' ? row : null;
      },
      30_000,
    );
    expect(Date.now() - killedAt).toBeLessThan(LIVE.leaseMs + 2 * LIVE.sweepEveryMs + 2000);
    expect(ended).toMatchObject({ state: 'failed', errorCode: 'interrupted' });
    // The text streamed before the crash, up to its last save.
    expect(ended.text.length).toBeGreaterThan(0);
    expect(full.startsWith(ended.text)).toBe(true);

    b.llm.script = { mode: 'pieces', pieces: ['Here'] };
    const again = await b.app.inject({
      method: 'POST',
      url: `/api/chat/${chat.id}/messages`,
      headers: auth,
      payload: { client_id: randomUUID(), text: 'Hello?' },
    });
    expect(again.statusCode).toBe(200);
  }, 60_000);
});
