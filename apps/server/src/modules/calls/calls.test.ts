import { randomUUID } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { CallTokenResponse, Message } from '@reverie/shared';
import { calls, messages } from '../../db/schema.js';
import { MemoryPubSub } from '../../providers/pubsub/index.js';
import { CallClient, concat, EnergyVad, noise, silence, speech } from '../../../test/call-audio.js';
import { createBot, createPremium, createUser, deleteAccount } from '../../../test/factories.js';
import { startFakeOpenAi, type FakeOpenAi } from '../../../test/fake-openai.js';
import { listeningPort } from '../../../test/child-replica.js';
import { createTestApp, createTestDatabase, openReplicaDatabase, type TestApp } from '../../../test/helpers.js';

/**
 * Voice calls end to end (docs/calls.md): a real WebSocket, a fake OpenAI-compatible server
 * for speech recognition, the model and speech (their real wire protocols), espeak-ng speech
 * as the microphone, an energy VAD as the detector.
 */
const TIMINGS = { leaseMs: 1500, renewEveryMs: 300, sweepEveryMs: 300, pingEveryMs: 5000, timeEveryMs: 1000 };
const REPLY = 'I am fine, thank you for asking. How was your day?';
/** For tests where the pacing is not under test: up to 5 s of reply audio sent at once. */
const UNPACED = { CALL_PLAYBACK_LEAD_MS: '5000' };

let fake: FakeOpenAi;
let hello: Int16Array;
let question: Int16Array;

function env(fakeUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    LLM_PROVIDER: 'openai',
    LLM_BASE_URL: fakeUrl,
    LLM_MODEL: 'fake-model',
    STT_PROVIDER: 'openai',
    STT_BASE_URL: fakeUrl,
    TTS_PROVIDER: 'openai',
    TTS_BASE_URL: fakeUrl,
    CHAT_MESSAGES_PER_MINUTE: '100',
    CALL_END_OF_TURN_MS: '400',
    ...extra,
  };
}

interface Server extends TestApp {
  base: string;
  ws: string;
}

const open: TestApp[] = [];
const clients: CallClient[] = [];

async function server(
  options: {
    env?: Record<string, string>;
    database?: TestApp['database'];
    pubsub?: MemoryPubSub;
    jobsSchema?: string;
  } = {},
): Promise<Server> {
  const t = await createTestApp({
    env: env(fake.url, options.env),
    database: options.database,
    pubsub: options.pubsub,
    jobsSchema: options.jobsSchema,
    vad: () => new EnergyVad(),
    calls: TIMINGS,
  });
  open.push(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as AddressInfo).port;
  return { ...t, base: `http://127.0.0.1:${port}`, ws: `ws://127.0.0.1:${port}` };
}

async function premiumUser(s: Server) {
  const { user, auth } = await createUser(s.app, s.database.db);
  await createPremium(s.database.db, user.id);
  const bot = await createBot(s.database.db, { voice: 'en-us+f3' });
  return { user, auth, bot };
}

async function token(s: Server, auth: Record<string, string>, payload: Record<string, unknown>) {
  return s.app.inject({ method: 'POST', url: '/api/audio_chat/token', headers: auth, payload });
}

async function call(s: Server, auth: Record<string, string>, slug: string, clientOptions = {}) {
  const res = await token(s, auth, { slug });
  expect(res.statusCode).toBe(200);
  const body = res.json<CallTokenResponse>();
  const client = CallClient.open(`${s.ws}${body.url}`, clientOptions);
  clients.push(client);
  const ready = await client.waitFor('ready');
  return { client, body, ready };
}

async function history(s: Server, auth: Record<string, string>, chatId: string): Promise<Message[]> {
  const res = await s.app.inject({ method: 'GET', url: `/api/chat/history/${chatId}`, headers: auth });
  expect(res.statusCode).toBe(200);
  return res.json<{ results: Message[] }>().results;
}

async function waitFor<T>(what: string, check: () => Promise<T | null | undefined | false>, ms = 8000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-calls-'));

const callRow = async (s: Server, id: string) => (await s.database.db.select().from(calls).where(eq(calls.id, id)))[0]!;

beforeAll(async () => {
  fake = await startFakeOpenAi({ behaviour: { mode: 'ok', text: REPLY } });
  hello = await speech('Hello, how are you doing today?');
  question = await speech('Tell me a long story about the sea please.');
}, 60_000);

afterEach(async () => {
  for (const client of clients.splice(0)) client.drop();
  for (const t of open.splice(0)) await t.app.close().catch(() => undefined);
  fake.setBehaviour({ mode: 'ok', text: REPLY });
  fake.setStt({ text: 'How are you?' });
  fake.setSpeech({});
});

afterAll(async () => {
  await fake.close();
});

describe('a voice call', () => {
  it('speech in → the user caption, the reply as paced audio, the transcript saved as spoken messages', async () => {
    const s = await server();
    fake.setStt({ text: 'How are you?' });
    const { auth, bot } = await premiumUser(s);
    const { client, body, ready } = await call(s, auth, bot.slug);
    expect(ready).toMatchObject({
      version: 1,
      call_id: body.call_id,
      chat_id: body.chat_id,
      input: { format: 'pcm16', sample_rate: 16000, frame_ms: 20 },
      output: { format: 'pcm16', sample_rate: 24000 },
      resume_grace_s: 20,
      state: 'listening',
    });
    expect(ready.seconds_left).toBeGreaterThan(120 * 60 - 5);

    await client.stream(concat(silence(300), hello, silence(700)), 4);
    const caption = await client.waitFor('caption', (m) => m.role === 'user');
    expect(caption).toMatchObject({ text: 'How are you?', final: true });
    expect(caption.message_id).toBeTruthy();
    const start = await client.waitFor('audio_start');
    expect(start.sample_rate).toBe(24000);
    const end = await client.waitFor('audio_end', (m) => m.turn_id === start.turn_id, { timeoutMs: 15_000 });
    expect(end.turn_id).toBe(start.turn_id);
    const frames = client.audio.filter((f) => f.turn === start.turn_id);
    const audioMs = (frames.reduce((sum, f) => sum + f.bytes, 0) / 2 / 24000) * 1000;
    expect(audioMs).toBeGreaterThan(1000);
    // Paced: sent over (about) the audio's own length, less the lead the client may hold.
    const spread = frames.at(-1)!.at - frames[0]!.at;
    expect(spread).toBeGreaterThan(audioMs - 300 - 150);
    // Frames of about 20 ms (24 kHz PCM16: 960 bytes).
    expect(Math.max(...frames.map((f) => f.bytes))).toBeLessThanOrEqual(960);
    const botCaptions = client.messages.filter((m) => m.type === 'caption' && m.role === 'bot');
    expect(botCaptions.map((m) => (m as { text: string }).text).join(' ')).toBe(REPLY);
    // The states went round: thinking, speaking, listening.
    await client.waitFor('state', (m) => m.state === 'listening');
    const states = client.messages.filter((m) => m.type === 'state').map((m) => (m as { state: string }).state);
    expect(states).toEqual(expect.arrayContaining(['user_speaking', 'thinking', 'speaking', 'listening']));

    // The recogniser got the utterance as a 16 kHz WAV with the user's language.
    const asked = fake.transcriptions.at(-1)!;
    expect(asked).toMatchObject({ model: 'whisper-1', language: 'en', responseFormat: 'json', sampleRate: 16000 });
    expect(asked.samples.length / 16000).toBeGreaterThan(hello.length / 16000 - 0.1);
    // A woman's voice for a character with a female espeak-ng variant.
    expect(fake.speechRequests.at(-1)).toMatchObject({ voice: 'nova' });

    await waitFor('the reply saved', async () => {
      const rows = await history(s, auth, body.chat_id);
      return rows.some((m) => m.role === 'bot' && m.spoken && m.state === 'done');
    });
    const rows = await history(s, auth, body.chat_id);
    const user = rows.find((m) => m.role === 'user');
    const reply = rows.find((m) => m.role === 'bot' && m.spoken);
    expect(user).toMatchObject({ text: 'How are you?', spoken: true });
    expect(reply).toMatchObject({ text: REPLY, spoken: true, state: 'done', reply_to: user!.id });
    // The greeting of the new chat was typed, not said.
    expect(rows.filter((m) => m.role === 'bot' && !m.spoken)).toHaveLength(1);

    client.json({ type: 'hangup' });
    expect(await client.waitFor('end')).toMatchObject({ reason: 'hangup' });
    expect(await client.closed).toBe(1000);
    const row = await callRow(s, body.call_id);
    expect(row.endReason).toBe('hangup');
    expect(row.endedAt).not.toBeNull();
  }, 40_000);

  it('the crisis protocol applies to what is said: the fixed crisis reply is spoken, captioned and saved as spoken', async () => {
    // The reply sent as fast as the client may buffer it: the pacing is the first test's.
    const s = await server({ env: UNPACED });
    fake.setStt({ text: 'I wish I was dead' });
    fake.setSpeech({ msPerChar: 5 });
    const { auth, bot } = await premiumUser(s);
    const { client, body } = await call(s, auth, bot.slug);
    const asked = fake.requests.length;
    await client.stream(concat(hello, silence(700)), 4);
    const start = await client.waitFor('audio_start', () => true, { timeoutMs: 15_000 });
    await client.waitFor('audio_end', (m) => m.turn_id === start.turn_id, { timeoutMs: 20_000 });
    const rows = await history(s, auth, body.chat_id);
    const notice = rows.find((m) => m.notice === 'crisis');
    expect(notice).toMatchObject({ role: 'system', spoken: true });
    // Never the model's words: it was not asked.
    expect(fake.requests.length).toBe(asked);
    const said = client.messages
      .filter((m) => m.type === 'caption' && m.role === 'bot')
      .map((m) => m as { text: string; message_id: string | null });
    expect(said.length).toBeGreaterThan(0);
    expect(said.every((m) => m.message_id === notice!.id)).toBe(true);
    expect(notice!.text.replace(/\s+/g, ' ')).toContain(said[0]!.text.split(' ').slice(0, 3).join(' '));
  }, 30_000);

  it('an utterance recognised as nothing goes back to listening with no message', async () => {
    const s = await server();
    fake.setStt({ text: '' });
    const { auth, bot } = await premiumUser(s);
    const { client, body } = await call(s, auth, bot.slug);
    const before = fake.transcriptions.length;
    await client.stream(concat(hello, silence(700)), 4);
    await waitFor('the recognition', async () => fake.transcriptions.length > before);
    await client.waitFor('state', (m) => m.state === 'listening');
    const rows = await history(s, auth, body.chat_id);
    expect(rows.filter((m) => m.role === 'user')).toHaveLength(0);
    expect(client.messages.some((m) => m.type === 'audio_start')).toBe(false);
  }, 30_000);

  it('the token: 401 for guests, 402 without premium, 404 for a chat not the user’s, 409 during a call, 429 when the minutes are used', async () => {
    const s = await server({ env: { CALL_MINUTES_PER_DAY: '2' } });
    const { auth, bot, user } = await premiumUser(s);
    expect((await token(s, {}, { slug: bot.slug })).statusCode).toBe(401);
    const free = await createUser(s.app, s.database.db);
    const refused = await token(s, free.auth, { slug: bot.slug });
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toMatchObject({ code: 'premium_required' });
    expect((await token(s, auth, { slug: 'no-such-character' })).statusCode).toBe(404);
    const other = await premiumUser(s);
    const theirs = (await token(s, other.auth, { slug: bot.slug })).json<CallTokenResponse>();
    expect((await token(s, auth, { chat_id: theirs.chat_id })).statusCode).toBe(404);
    expect((await token(s, auth, { slug: bot.slug, chat_id: theirs.chat_id })).statusCode).toBe(400);

    // A token never used does not block the next one; a connected call does.
    const unused = (await token(s, auth, { slug: bot.slug })).json<CallTokenResponse>();
    const { body } = await call(s, auth, bot.slug);
    expect((await callRow(s, unused.call_id)).endedAt).not.toBeNull();
    const busy = await token(s, auth, { slug: bot.slug });
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toMatchObject({ code: 'call_in_progress' });

    // Today's minutes used up (2 minutes; the live call has 0 s so far, another call used 120 s).
    await s.database.db.update(calls).set({ secondsBilled: 120 }).where(eq(calls.id, unused.call_id));
    clients.at(-1)!.json({ type: 'hangup' });
    await clients.at(-1)!.closed;
    expect((await callRow(s, body.call_id)).endReason).toBe('hangup');
    const exhausted = await token(s, auth, { slug: bot.slug });
    expect(exhausted.statusCode).toBe(429);
    expect(exhausted.json()).toMatchObject({ code: 'call_minutes_exhausted' });
    const retry = Number(exhausted.headers['retry-after']);
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(86_400);
    expect(user.id).toBeTruthy();
  }, 30_000);

  it('409 stt_unavailable, and /api/config says why, when there is no speech recognition', async () => {
    const s = await server({ env: { STT_PROVIDER: 'none' } });
    const config = await s.app.inject({ method: 'GET', url: '/api/config' });
    expect(config.json()).toMatchObject({ calls: { available: false, reason: 'stt_disabled' } });
    const { auth, bot } = await premiumUser(s);
    const res = await token(s, auth, { slug: bot.slug });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'stt_unavailable', errors: { reason: ['stt_disabled'] } });
    const ok = await server();
    expect((await ok.app.inject({ method: 'GET', url: '/api/config' })).json()).toMatchObject({
      calls: { available: true, reason: null },
    });
  });

  it('the default local recognition with no model and no way to pull it: calls unavailable before any call starts', async () => {
    const dead = await closedPort();
    const s = await server({
      env: { STT_PROVIDER: 'local', STT_LOCAL_MODEL_URL: `http://127.0.0.1:${dead}/whisper`, DATA_DIR: tempDir() },
    });
    const started = Date.now();
    const config = await s.app.inject({ method: 'GET', url: '/api/config' });
    expect(Date.now() - started).toBeLessThan(4000);
    expect(config.json()).toMatchObject({ calls: { available: false, reason: 'stt_model_unavailable' } });
    const { auth, bot } = await premiumUser(s);
    const res = await token(s, auth, { slug: bot.slug });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'stt_unavailable', errors: { reason: ['stt_model_unavailable'] } });
    // No call row, no chat: nothing was admitted.
    expect(await s.database.db.select().from(calls)).toHaveLength(0);
    // A remote provider that does not answer: the same, with its own reason.
    const remote = await server({ env: { STT_BASE_URL: `http://127.0.0.1:${dead}/v1` } });
    expect((await remote.app.inject({ method: 'GET', url: '/api/config' })).json()).toMatchObject({
      calls: { available: false, reason: 'stt_provider_unreachable' },
    });
  });

  it('a call in which recognition never worked counts no minute; one in which it did counts them all', async () => {
    const s = await server({ env: UNPACED });
    const { auth, bot } = await premiumUser(s);
    fake.setStt({ text: '', status: 503 });
    const failing = await call(s, auth, bot.slug);
    await failing.client.stream(concat(hello, silence(700)), 4);
    expect(await failing.client.waitFor('notice')).toMatchObject({ code: 'stt_failed' });
    await failing.client.waitFor('time', (m) => m.elapsed_s >= 2, { timeoutMs: 6000 });
    failing.client.json({ type: 'hangup' });
    await failing.client.closed;
    const unheard = await callRow(s, failing.body.call_id);
    expect(unheard).toMatchObject({ recognition: 'failed', secondsBilled: 0, endReason: 'hangup' });

    fake.setStt({ text: 'How are you?' });
    const heard = await call(s, auth, bot.slug);
    // The failed call took nothing from today's minutes.
    expect(heard.ready.seconds_left).toBeGreaterThan(120 * 60 - 2);
    await heard.client.stream(concat(hello, silence(700)), 4);
    await heard.client.waitFor('caption', (m) => m.role === 'user');
    await heard.client.waitFor('time', (m) => m.elapsed_s >= 2, { timeoutMs: 6000 });
    heard.client.json({ type: 'hangup' });
    await heard.client.closed;
    const row = await callRow(s, heard.body.call_id);
    expect(row.recognition).toBe('worked');
    expect(row.secondsBilled).toBeGreaterThanOrEqual(2);
  }, 40_000);

  it('a bad or expired token closes the socket with 4001 before anything starts; an ended call with 4004', async () => {
    const s = await server();
    const garbage = CallClient.open(`${s.ws}/api/audio_chat/ws?token=not-a-token`);
    expect(await garbage.closed).toBe(4001);
    const none = CallClient.open(`${s.ws}/api/audio_chat/ws`);
    expect(await none.closed).toBe(4001);
    const { auth, bot, user } = await premiumUser(s);
    const issued = (await token(s, auth, { slug: bot.slug })).json<CallTokenResponse>();
    const past = Math.floor(Date.now() / 1000) - 120;
    const expired = await new SignJWT({ chat: issued.chat_id, call: issued.call_id })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.id)
      .setIssuer('reverie')
      .setAudience('call')
      .setIssuedAt(past - 60)
      .setExpirationTime(past)
      .sign(new TextEncoder().encode(`${s.config.JWT_SECRET}:calls`));
    const late = CallClient.open(`${s.ws}/api/audio_chat/ws?token=${expired}`);
    expect(await late.closed).toBe(4001);
    expect(late.messages).toEqual([]);
    // Issue 27: a call token without an expiry or a session, signed with the real key, is refused.
    const { sid } = decodeJwt(issued.token) as { sid?: string };
    expect(sid).toEqual(expect.any(String));
    const callKey = new TextEncoder().encode(`${s.config.JWT_SECRET}:calls`);
    const partial = (claims: Record<string, unknown>, expires: boolean) => {
      const jwt = new SignJWT({ chat: issued.chat_id, call: issued.call_id, ...claims })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(user.id)
        .setIssuer('reverie')
        .setAudience('call')
        .setIssuedAt();
      return (expires ? jwt.setExpirationTime('5m') : jwt).sign(callKey);
    };
    // A token of a session that is not live (ended, or never was) is refused too.
    const deadSession = await partial({ sid: randomUUID() }, true);
    for (const forged of [await partial({ sid }, false), await partial({}, true), deadSession]) {
      const refused = CallClient.open(`${s.ws}/api/audio_chat/ws?token=${forged}`);
      expect(await refused.closed).toBe(4001);
    }
    // An access token is no call token.
    const access = CallClient.open(`${s.ws}/api/audio_chat/ws?token=${auth.authorization.slice(7)}`);
    expect(await access.closed).toBe(4001);
    // The token's call, ended: 4004.
    await s.database.db
      .update(calls)
      .set({ endedAt: new Date(), endReason: 'hangup' })
      .where(eq(calls.id, issued.call_id));
    const over = CallClient.open(`${s.ws}${issued.url}`);
    expect(await over.closed).toBe(4004);
  });

  it('a malformed message or an oversized frame closes with 4400', async () => {
    const s = await server();
    const { auth, bot } = await premiumUser(s);
    const first = await call(s, auth, bot.slug);
    first.client.socket.send('{"type":"dance"}');
    expect(await first.client.closed).toBe(4400);
    const again = CallClient.open(`${s.ws}/api/audio_chat/ws?resume=${first.ready.resume}`);
    clients.push(again);
    await again.waitFor('ready');
    again.send(new Int16Array(9000));
    expect(await again.closed).toBe(4400);
  });

  it('a dropped call resumes with its key: the same call, its time still counting, a new key', async () => {
    const s = await server();
    const { auth, bot } = await premiumUser(s);
    const { client, ready } = await call(s, auth, bot.slug);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    client.drop();
    await waitFor('the drop seen', async () => (await callRow(s, ready.call_id)).owner === null);
    const resumed = CallClient.open(`${s.ws}/api/audio_chat/ws?resume=${ready.resume}`);
    clients.push(resumed);
    const again = await resumed.waitFor('ready');
    expect(again.call_id).toBe(ready.call_id);
    expect(again.elapsed_s).toBeGreaterThanOrEqual(1);
    expect(again.resume).not.toBe(ready.resume);
    expect(again.state).toBe('listening');
    // The old key is spent.
    const stale = CallClient.open(`${s.ws}/api/audio_chat/ws?resume=${ready.resume}`);
    expect(await stale.closed).toBe(4001);
    // A second connection with the new key replaces this one (4002).
    const other = CallClient.open(`${s.ws}/api/audio_chat/ws?resume=${again.resume}`);
    clients.push(other);
    await other.waitFor('ready');
    expect(await resumed.closed).toBe(4002);
    expect((await callRow(s, ready.call_id)).endedAt).toBeNull();
  }, 20_000);

  it('a call nobody resumes ends after the grace period', async () => {
    const s = await server({ env: { CALL_RESUME_GRACE_S: '1' } });
    const { auth, bot } = await premiumUser(s);
    const { client, ready } = await call(s, auth, bot.slug);
    client.drop();
    const row = await waitFor('the call ended', async () => {
      const r = await callRow(s, ready.call_id);
      return r.endedAt ? r : null;
    });
    expect(row.endReason).toBe('timeout');
    const late = CallClient.open(`${s.ws}/api/audio_chat/ws?resume=${ready.resume}`);
    expect(await late.closed).toBe(4004);
  }, 15_000);

  it('resumes on another replica sharing the database, and the call goes on there', async () => {
    const database = await createTestDatabase();
    const pubsub = database.raw.kind === 'pglite' ? new MemoryPubSub() : undefined;
    const a = await server({ database, pubsub, jobsSchema: 'pgboss_calls', env: UNPACED });
    const b = await server({
      database: await openReplicaDatabase(database),
      pubsub,
      jobsSchema: 'pgboss_calls',
      env: UNPACED,
    });
    const { auth, bot } = await premiumUser(a);
    const { client, ready, body } = await call(a, auth, bot.slug);
    client.drop();
    await waitFor('the drop seen', async () => (await callRow(a, ready.call_id)).owner === null);
    const resumed = CallClient.open(`${b.ws}/api/audio_chat/ws?resume=${ready.resume}`);
    clients.push(resumed);
    const again = await resumed.waitFor('ready');
    expect(again.call_id).toBe(ready.call_id);
    expect(b.app.calls.size).toBe(1);
    expect(a.app.calls.size).toBe(0);
    fake.setStt({ text: 'Are you still there?' });
    await resumed.stream(concat(hello, silence(700)), 4);
    await resumed.waitFor('audio_end', () => true, { timeoutMs: 15_000 });
    const rows = await history(b, auth, body.chat_id);
    expect(rows.find((m) => m.role === 'user')).toMatchObject({ text: 'Are you still there?', spoken: true });
  }, 30_000);

  it('barge-in: the user speaks over the reply → interrupt, and the saved reply is cut to what was heard', async () => {
    const s = await server();
    const long = Array.from(
      { length: 6 },
      (_, i) => `This is sentence number ${i + 1} of a rather long answer about the sea.`,
    ).join(' ');
    fake.setBehaviour({ mode: 'ok', text: long });
    const base = fake.transcriptions.length;
    fake.setStt({ text: (index) => (index === base ? 'Tell me a story.' : 'Wait, stop.') });
    const { auth, bot } = await premiumUser(s);
    const { client, body } = await call(s, auth, bot.slug);
    await client.stream(concat(hello, silence(700)), 4);
    const start = await client.waitFor('audio_start', () => true, { timeoutMs: 15_000 });
    // About two seconds of the reply play, then the user speaks over it (in real time).
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const from = client.messages.length;
    const bargeAt = performance.now();
    void client.stream(concat(question, silence(700)), 1);
    const interrupt = await client.waitFor('interrupt', () => true, { from, timeoutMs: 5000 });
    expect(interrupt.turn_id).toBe(start.turn_id);
    // Told within the minimum speech length and a little.
    expect(performance.now() - bargeAt).toBeLessThan(1000);
    // The second utterance is the next turn.
    await client.waitFor('caption', (m) => m.role === 'user' && m.text === 'Wait, stop.', { from, timeoutMs: 15_000 });
    const rows = await waitFor('the cut reply', async () => {
      const all = await history(s, auth, body.chat_id);
      const first = all.find((m) => m.role === 'bot' && m.spoken && m.state === 'stopped');
      return first ? all : null;
    });
    const cut = rows.find((m) => m.role === 'bot' && m.spoken && m.state === 'stopped')!;
    expect(cut.text.length).toBeGreaterThan(0);
    expect(cut.text.length).toBeLessThan(long.length / 2);
    expect(long.startsWith(cut.text)).toBe(true);
    // Cut at a word boundary.
    expect(long[cut.text.length]).toBe(' ');
    expect(rows.find((m) => m.role === 'user' && m.text === 'Wait, stop.')).toBeTruthy();
  }, 40_000);

  it('a short noise while she speaks does not interrupt her', async () => {
    const s = await server();
    fake.setBehaviour({
      mode: 'ok',
      text: 'This answer is long enough to be spoken over. And it goes on for a while.',
    });
    const { auth, bot } = await premiumUser(s);
    const { client, body } = await call(s, auth, bot.slug);
    await client.stream(concat(hello, silence(700)), 4);
    const start = await client.waitFor('audio_start', () => true, { timeoutMs: 15_000 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    await client.stream(concat(noise(100), silence(800)), 1);
    await client.waitFor('audio_end', (m) => m.turn_id === start.turn_id, { timeoutMs: 15_000 });
    expect(client.messages.some((m) => m.type === 'interrupt')).toBe(false);
    const rows = await history(s, auth, body.chat_id);
    expect(rows.find((m) => m.role === 'bot' && m.spoken)).toMatchObject({ state: 'done' });
  }, 30_000);

  it('ends with minutes_exhausted when today’s allowance runs out during the call', async () => {
    const s = await server({ env: { CALL_MINUTES_PER_DAY: '1' } });
    const { auth, bot, user } = await premiumUser(s);
    // 57 of today's 60 seconds were used by an earlier call.
    const earlier = (await token(s, auth, { slug: bot.slug })).json<CallTokenResponse>();
    await s.database.db
      .update(calls)
      .set({ endedAt: new Date(), endReason: 'hangup', secondsBilled: 57 })
      .where(eq(calls.id, earlier.call_id));
    const { client, ready } = await call(s, auth, bot.slug);
    expect(ready.seconds_left).toBeLessThanOrEqual(3);
    const end = await client.waitFor('end', () => true, { timeoutMs: 8000 });
    expect(end.reason).toBe('minutes_exhausted');
    expect(await client.closed).toBe(1000);
    const row = await callRow(s, ready.call_id);
    expect(row.endReason).toBe('minutes_exhausted');
    expect(row.secondsBilled).toBeGreaterThanOrEqual(2);
    expect(user.id).toBeTruthy();
  }, 20_000);

  it('writes the seconds while connected, and shutdown ends the call with server_shutdown', async () => {
    const s = await server();
    const { auth, bot } = await premiumUser(s);
    const { client, ready } = await call(s, auth, bot.slug);
    await client.waitFor('time', (m) => m.elapsed_s >= 1, { timeoutMs: 5000 });
    await waitFor('the seconds written', async () => (await callRow(s, ready.call_id)).secondsBilled >= 1);
    await s.app.close();
    expect(await client.closed).toBe(1000);
    expect(client.messages.find((m) => m.type === 'end')).toMatchObject({ reason: 'server_shutdown' });
    expect((await callRow(s, ready.call_id)).endReason).toBe('server_shutdown');
  }, 15_000);

  it('deleting all data deletes the calls', async () => {
    const s = await server();
    const { auth, bot, user } = await premiumUser(s);
    const issued = (await token(s, auth, { slug: bot.slug })).json<CallTokenResponse>();
    expect(await callRow(s, issued.call_id)).toBeTruthy();
    const res = await deleteAccount(s.app, s.database.db, user.id, auth);
    expect([200, 204]).toContain(res.statusCode);
    const left = await s.database.db.select().from(calls).where(eq(calls.userId, user.id));
    expect(left).toHaveLength(0);
    expect(await s.database.db.select().from(messages).where(eq(messages.userId, user.id))).toHaveLength(0);
  });
});

/** A replica killed with SIGKILL (PostgreSQL only: the killed replica runs in its own process). */
describe.runIf(inject('testDb').kind === 'postgres')('a replica killed with kill -9', () => {
  const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
  });

  async function childReplica(databaseUrl: string, extra: Record<string, string>) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/replica-process.ts'], {
      cwd: serverRoot,
      env: {
        ...process.env,
        REPLICA_DATABASE_URL: databaseUrl,
        REPLICA_ENV: JSON.stringify(env(fake.url, extra)),
        REPLICA_CALLS: JSON.stringify(TIMINGS),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    const port = await listeningPort(child);
    return { child, ws: `ws://127.0.0.1:${port}` };
  }

  async function killedCall(extra: Record<string, string>) {
    const b = await server({ env: extra });
    if (b.database.raw.kind !== 'postgres') throw new Error('PostgreSQL only');
    const a = await childReplica(b.database.raw.url, { JWT_SECRET: b.config.JWT_SECRET!, ...extra });
    const { auth, bot } = await premiumUser(b);
    const issued = (await token(b, auth, { slug: bot.slug })).json<CallTokenResponse>();
    // The call runs on A (the token works on any replica).
    const client = CallClient.open(`${a.ws}${issued.url}`);
    clients.push(client);
    const ready = await client.waitFor('ready');
    await waitFor('seconds written by A', async () => (await callRow(b, ready.call_id)).secondsBilled >= 1);
    a.child.kill('SIGKILL');
    await client.closed;
    return { b, ready, auth };
  }

  it('the call is resumed on another replica', async () => {
    const { b, ready } = await killedCall({});
    const resumed = CallClient.open(`${b.ws}/api/audio_chat/ws?resume=${ready.resume}`);
    clients.push(resumed);
    const again = await resumed.waitFor('ready');
    expect(again.call_id).toBe(ready.call_id);
    expect(again.elapsed_s).toBeGreaterThanOrEqual(1);
  }, 30_000);

  it('a call nobody resumes is ended by another replica after the lease and the grace period', async () => {
    const { b, ready, auth } = await killedCall({ CALL_RESUME_GRACE_S: '1' });
    const row = await waitFor(
      'the call ended by B',
      async () => {
        const r = await callRow(b, ready.call_id);
        return r.endedAt ? r : null;
      },
      10_000,
    );
    expect(row.endReason).toBe('timeout');
    expect(row.secondsBilled).toBeGreaterThanOrEqual(1);
    // The user can call again.
    expect((await token(b, auth, { chat_id: row.chatId })).statusCode).toBe(200);
  }, 30_000);
});
