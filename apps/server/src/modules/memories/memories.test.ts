import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Chat, Memory, MemoryHistory, MemoryList, Message } from '@reverie/shared';
import {
  bots,
  chats,
  journalEntries,
  memories as memoriesTable,
  memoryRevisions,
  messageMemories,
} from '../../db/schema.js';
import { createBot, createUser, deleteAccount, openChatWithNewBot } from '../../../test/factories.js';
import { startFakeOpenAi, type FakeOpenAi } from '../../../test/fake-openai.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { importSummaries } from './index.js';
import { JournalWriter } from './journal.js';

/**
 * Memories end to end (issue 28, docs/memory.md) on the real OpenAI-compatible provider against
 * the fake server: the extraction's structured operations (add, duplicates, correction, forget,
 * refused unsafe memories), retrieval into the prompt the fake receives, citations per reply,
 * the memory page's API, "don't remember this chat", the summary import and the journal.
 */
let fake: FakeOpenAi;
let t: TestApp;
/** The operations the fake answers to the next extraction requests (by the prompt it gets). */
let nextOps: (prompt: string) => unknown[] = () => [];
/** The reply text of ordinary chat requests. */
let replyText = 'I am listening.';

const structured = () => fake.requests.filter((r) => r.response_format);
const chatRequests = () => fake.requests.filter((r) => !r.response_format);
const systemOf = (body: Record<string, unknown>) =>
  ((body.messages as { role: string; content: string }[]) ?? []).find((m) => m.role === 'system')?.content ?? '';

beforeAll(async () => {
  fake = await startFakeOpenAi();
  fake.setResponder((body) => {
    if (!body.response_format) return replyText;
    const messages = body.messages as { content: string }[];
    return JSON.stringify({ operations: nextOps(messages.map((m) => m.content).join('\n')) });
  });
  t = await createTestApp({
    env: {
      LLM_PROVIDER: 'openai',
      LLM_BASE_URL: fake.url,
      LLM_MODEL: 'fake-model',
      LLM_EMBEDDINGS_MODEL: 'fake-embedder',
      MEMORY_EXTRACT_DELAY_S: '0',
      CHAT_MESSAGES_PER_MINUTE: '100',
    },
  });
});
afterAll(async () => {
  await t?.app.close();
  await fake?.close();
});
beforeEach(() => {
  nextOps = () => [];
  replyText = 'I am listening.';
});

const op = (o: Record<string, unknown>) => ({
  memory: null,
  kind: null,
  subject: 'user',
  text: null,
  importance: 3,
  event_date: null,
  sources: [1],
  ...o,
});

async function setup() {
  const { auth, user } = await createUser(t.app, t.database.db);
  const { bot, chat } = await openChatWithNewBot(t.app, t.database.db, auth, { name: 'Mia' });
  return { auth, user, bot, chat };
}

async function send(auth: { authorization: string }, chatId: string, text: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/chat/${chatId}/messages`,
    headers: auth,
    payload: { client_id: randomUUID(), text },
  });
  expect(res.statusCode).toBe(200);
  await t.app.replies.idle();
  await t.app.memories.idle();
}

async function list(auth: { authorization: string }, botId: string, query = '') {
  const res = await t.app.inject({ method: 'GET', url: `/api/characters/${botId}/memories${query}`, headers: auth });
  expect(res.statusCode).toBe(200);
  return res.json<MemoryList>().results;
}

/** POST /api/characters/{botId}/memories: a memory about the user added by hand (the answer, unchecked). */
function addByHand(auth: { authorization: string }, botId: string, text: string, extra: Record<string, unknown> = {}) {
  return t.app.inject({
    method: 'POST',
    url: `/api/characters/${botId}/memories`,
    headers: auth,
    payload: { text, kind: 'user', ...extra },
  });
}

/** The number of the known memory in the extraction prompt whose text contains `needle`. */
const knownNumber = (prompt: string, needle: string) => {
  const line = prompt.split('\n').find((l) => /^M\d+ /.test(l) && l.includes(needle));
  return line ? Number(/^M(\d+)/.exec(line)![1]) : null;
};

describe('extraction (a durable job answering structured operations)', () => {
  it('adds memories, merges duplicates, refuses unsafe ones, corrects with a new revision, forgets', async () => {
    const { auth, bot, chat } = await setup();
    nextOps = () => [
      op({ op: 'add', kind: 'user', text: 'Alex has a cat called Fog.', importance: 4 }),
      op({ op: 'add', kind: 'user', text: 'alex has a cat called fog' }),
      op({ op: 'add', kind: 'event', text: 'Alex and Mia watched the sea.', event_date: '2026-11-20' }),
      op({ op: 'add', kind: 'user', subject: 'third_party', text: "Alex's neighbour is having an affair." }),
      op({ op: 'add', kind: 'user', text: "Alex's niece is 12 years old." }),
      op({ op: 'add', kind: 'banana', text: 'Not a kind.' }),
    ];
    await send(auth, chat.id, 'I am Alex, my cat Fog says hi. We watched the sea yesterday.');

    const request = structured().at(-1)!;
    expect(request.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'memory_operations', strict: true },
    });
    expect(JSON.stringify(request.messages)).toContain('I am Alex, my cat Fog says hi.');

    let rows = await list(auth, bot.id);
    expect(rows.map((m) => m.text).sort()).toEqual(['Alex and Mia watched the sea.', 'Alex has a cat called Fog.']);
    const cat = rows.find((m) => m.text.includes('cat'))!;
    expect(cat).toMatchObject({ kind: 'user', origin: 'model', importance: 4, pinned: false });
    expect(cat.source_message_ids).toHaveLength(1);
    expect(rows.find((m) => m.kind === 'event')!.event_date).toBe('2026-11-20');

    // The newer statement wins: a correction is a new revision, the old text stays in the history.
    nextOps = (prompt) => [
      op({ op: 'update', memory: knownNumber(prompt, 'Fog'), text: 'Alex has a cat called Smoke.' }),
    ];
    await send(auth, chat.id, 'Actually my cat is called Smoke, not Fog.');
    rows = await list(auth, bot.id);
    expect(rows.map((m) => m.text)).toContain('Alex has a cat called Smoke.');
    expect(rows).toHaveLength(2);
    const history = await t.app.inject({ method: 'GET', url: `/api/memories/${cat.id}/history`, headers: auth });
    expect(history.json<MemoryHistory>().results.map((r) => [r.change, r.text])).toEqual([
      ['corrected', 'Alex has a cat called Smoke.'],
      ['merged', 'Alex has a cat called Fog.'],
      ['created', 'Alex has a cat called Fog.'],
    ]);

    // The model forgets what the user asks it to.
    nextOps = (prompt) => [op({ op: 'forget', memory: knownNumber(prompt, 'sea') })];
    await send(auth, chat.id, 'Please forget the sea trip.');
    rows = await list(auth, bot.id);
    expect(rows.map((m) => m.text)).toEqual(['Alex has a cat called Smoke.']);
  });

  it('skips a chat marked "don\'t remember this chat"', async () => {
    const { auth, bot, chat } = await setup();
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/chat/${chat.id}`,
      headers: auth,
      payload: { remember: false },
    });
    expect(patched.json<Chat>().remember).toBe(false);
    const before = structured().length;
    nextOps = () => [op({ op: 'add', kind: 'user', text: 'Alex likes secret things.' })];
    await send(auth, chat.id, 'Keep this between us: I like secret things.');
    expect(structured().length).toBe(before);
    expect(await list(auth, bot.id)).toEqual([]);
  });

  it('ignores an answer that is not operations, and reads those messages only once', async () => {
    const { auth, bot, chat } = await setup();
    nextOps = () => 'not a list' as unknown as unknown[];
    await send(auth, chat.id, 'My favourite colour is green.');
    expect(await list(auth, bot.id)).toEqual([]);
    nextOps = (prompt) => (prompt.includes('favourite colour') ? [op({ op: 'add', kind: 'user', text: 'Wrong' })] : []);
    await send(auth, chat.id, 'Hello again.');
    expect(await list(auth, bot.id)).toEqual([]);
  });
});

describe('retrieval into the prompt and citations', () => {
  it('puts pinned and relevant memories in the prompt, records citations, and a forgotten memory never returns', async () => {
    const { auth, bot, chat } = await setup();
    const add = async (text: string, extra: Record<string, unknown> = {}) => {
      const res = await addByHand(auth, bot.id, text, extra);
      expect(res.statusCode).toBe(201);
      return res.json<Memory>();
    };
    const name = await add('The user is called Alex.', { pinned: true, importance: 5 });
    const guitar = await add('Alex plays the guitar in a band called Blue Owls.');
    const unrelated = await add('Alex dislikes mushrooms.');
    // Their embeddings were stored (the endpoint offers /embeddings).
    expect(fake.embeddingRequests.length).toBeGreaterThan(0);

    replyText = 'Your band Blue Owls and your guitar, of course!';
    await send(auth, chat.id, 'Do you remember my guitar band?');
    let system = systemOf(chatRequests().at(-1)!);
    expect(system).toContain('What Mia remembers about');
    expect(system.indexOf('The user is called Alex.')).toBeLessThan(system.indexOf('Blue Owls'));
    expect(system).not.toContain('mushrooms');

    const history = await t.app.inject({ method: 'GET', url: `/api/chat/history/${chat.id}`, headers: auth });
    const reply = history.json<{ results: Message[] }>().results.find((m) => m.role === 'bot' && m.notice === null)!;
    expect(reply.memories).toEqual({ in_prompt: [name.id, guitar.id], drew_on: [guitar.id] });

    // Forget: gone from the database (with its history) and from every later prompt.
    const forgot = await t.app.inject({ method: 'DELETE', url: `/api/memories/${guitar.id}`, headers: auth });
    expect(forgot.statusCode).toBe(204);
    const gone = await t.app.inject({ method: 'GET', url: `/api/memories/${guitar.id}/history`, headers: auth });
    expect(gone.statusCode).toBe(404);
    await send(auth, chat.id, 'What about my guitar band?');
    system = systemOf(chatRequests().at(-1)!);
    expect(system).not.toContain('Blue Owls');
    expect(system).toContain('The user is called Alex.');
    const after = await t.app.inject({ method: 'GET', url: `/api/chat/history/${chat.id}`, headers: auth });
    const first = after.json<{ results: Message[] }>().results.find((m) => m.id === reply.id)!;
    expect(first.memories).toEqual({ in_prompt: [name.id], drew_on: [] });

    // Forget everything about me.
    const all = await t.app.inject({ method: 'DELETE', url: `/api/characters/${bot.id}/memories`, headers: auth });
    expect(all.json()).toEqual({ deleted: 2 });
    expect(await list(auth, bot.id)).toEqual([]);
    void unrelated;
  });

  it("reads a send's memories ahead with the chat, and only uses them for the same turns", async () => {
    const { auth, bot, chat } = await setup();
    const res = await addByHand(auth, bot.id, 'Alex keeps bees on the roof of his house.');
    expect(res.statusCode).toBe(201);
    // Each memory read for a prompt embeds its query (the last three turns): one request per read.
    const queries = () => fake.embeddingRequests.map((r) => r.input as string[]).filter((i) => i.length === 1);
    const api = t.app.memories;
    const readAhead = api.readAhead;
    const aheads: (string[] | null)[] = [];
    api.readAhead = (input) => {
      const ahead = readAhead(input);
      aheads.push(ahead?.turns ?? null);
      return ahead;
    };
    replyText = 'I remember, tell me more.';
    await send(auth, chat.id, 'Hello there!');
    // The chat's first send: no turns noted yet, nothing read ahead.
    expect(aheads).toEqual([null]);
    const before = queries().length;
    // The next send: read ahead from the noted turns (previous message, reply) and its own text,
    // while the chat is read; the runner finds the same turns in the history and reads no more.
    await send(auth, chat.id, 'How are my bees doing?');
    expect(aheads[1]).toEqual(['Hello there!', 'I remember, tell me more.', 'How are my bees doing?']);
    expect(queries().slice(before)).toEqual([['Hello there!\nI remember, tell me more.\nHow are my bees doing?']]);
    expect(systemOf(chatRequests().at(-1)!)).toContain('Alex keeps bees');

    // The reply edited meanwhile: the history no longer shows the noted turns, so the read-ahead
    // is not used and the prompt's memories are read from the history's turns.
    const history = await t.app.inject({ method: 'GET', url: `/api/chat/history/${chat.id}`, headers: auth });
    const last = history.json<{ results: Message[] }>().results.find((m) => m.role === 'bot' && m.notice === null)!;
    const edited = await t.app.inject({
      method: 'PATCH',
      url: `/api/chat/${chat.id}/messages/${last.id}`,
      headers: auth,
      payload: { text: 'Your bees are fine.' },
    });
    expect(edited.statusCode).toBe(200);
    const next = queries().length;
    await send(auth, chat.id, 'And the honey?');
    expect(queries().slice(next)).toEqual([
      ['How are my bees doing?\nI remember, tell me more.\nAnd the honey?'],
      ['How are my bees doing?\nYour bees are fine.\nAnd the honey?'],
    ]);
    expect(systemOf(chatRequests().at(-1)!)).toContain('Alex keeps bees');
    api.readAhead = readAhead;
  });

  it('finds memories in Chinese and Russian by full-text search', async () => {
    const { auth, bot } = await setup();
    for (const text of ['小明喜欢在周末去爬山。', 'Саша боится собак.', 'Alex works as a nurse.'])
      await addByHand(auth, bot.id, text);
    expect((await list(auth, bot.id, `?q=${encodeURIComponent('爬山')}`)).map((m) => m.text)).toEqual([
      '小明喜欢在周末去爬山。',
    ]);
    expect((await list(auth, bot.id, `?q=${encodeURIComponent('собаку')}`)).map((m) => m.text)).toEqual([
      'Саша боится собак.',
    ]);
    expect((await list(auth, bot.id, '?q=nurses')).map((m) => m.text)).toEqual(['Alex works as a nurse.']);
  });
});

describe('the memory page API', () => {
  it("edits, pins, validates, and hides other users' memories (404)", async () => {
    const { auth, bot } = await setup();
    const created = await addByHand(auth, bot.id, 'Alex was born in Porto.');
    expect(created.statusCode).toBe(201);
    const memory = created.json<Memory>();
    // The same memory again (normalised: case, punctuation): 200, merged into the one she has.
    const again = await addByHand(auth, bot.id, 'alex was born in Porto');
    expect(again.statusCode).toBe(200);
    expect(again.json<Memory>().id).toBe(memory.id);
    const pinned = await t.app.inject({
      method: 'PATCH',
      url: `/api/memories/${memory.id}`,
      headers: auth,
      payload: { pinned: true },
    });
    expect(pinned.json<Memory>().pinned).toBe(true);
    // A pin changes no content: the memory keeps its date (and its recency in prompts).
    expect(pinned.json<Memory>().updated_at).toBe(again.json<Memory>().updated_at);
    const edited = await t.app.inject({
      method: 'PATCH',
      url: `/api/memories/${memory.id}`,
      headers: auth,
      payload: { text: 'Alex was born in Lisbon.' },
    });
    expect(edited.json<Memory>()).toMatchObject({ text: 'Alex was born in Lisbon.', pinned: true });
    expect(edited.json<Memory>().updated_at).not.toBe(again.json<Memory>().updated_at);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/memories/${memory.id}/history`, headers: auth }))
        .json<MemoryHistory>()
        .results.map((r) => r.change),
    ).toEqual(['corrected', 'pinned', 'merged', 'created']);

    const bad = await addByHand(auth, bot.id, 'x'.repeat(501));
    expect(bad.statusCode).toBe(400);
    const unsafe = await addByHand(auth, bot.id, 'My son is 9 years old.');
    expect(unsafe.statusCode).toBe(422);
    expect(unsafe.json().code).toBe('memory_refused');

    // A correction into another memory's text: refused in the user's language, like every error.
    const twin = await addByHand(auth, bot.id, 'Alex drinks tea.');
    for (const [language, detail] of [
      ['en', 'This is already among the memories.'],
      ['de', 'Das ist schon unter den Erinnerungen.'],
    ] as const) {
      const duplicate = await t.app.inject({
        method: 'PATCH',
        url: `/api/memories/${twin.json<Memory>().id}`,
        headers: { ...auth, 'accept-language': language },
        payload: { text: 'Alex was born in Lisbon.' },
      });
      expect(duplicate.statusCode).toBe(409);
      expect(duplicate.json()).toMatchObject({ code: 'memory_duplicate', detail });
    }

    const other = await createUser(t.app, t.database.db);
    for (const [method, url] of [
      ['GET', `/api/memories/${memory.id}`],
      ['PATCH', `/api/memories/${memory.id}`],
      ['DELETE', `/api/memories/${memory.id}`],
      ['GET', `/api/memories/${memory.id}/history`],
      ['GET', `/api/memories/not-a-uuid`],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        headers: other.auth,
        ...(method === 'PATCH' ? { payload: { pinned: false } } : {}),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await list(other.auth, bot.id)).length).toBe(0);
    const unknown = await t.app.inject({
      method: 'GET',
      url: `/api/characters/${randomUUID()}/memories`,
      headers: auth,
    });
    expect(unknown.statusCode).toBe(404);
  });

  it("pages the list and counts each kind's memories in all on its first page", async () => {
    const { auth, bot } = await setup();
    for (const text of ['Alex likes jazz.', 'Alex lives in Porto.', 'Alex has a cat.'])
      expect((await addByHand(auth, bot.id, text)).statusCode).toBe(201);
    const moment = await addByHand(auth, bot.id, 'Alex and Mia watched the sea.', {
      kind: 'event',
      event_date: '2026-11-20',
    });
    expect(moment.statusCode).toBe(201);
    const page = async (query: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/characters/${bot.id}/memories${query}`,
        headers: auth,
      });
      expect(res.statusCode).toBe(200);
      return res.json<MemoryList>();
    };
    const first = await page('?size=2');
    expect(first.results).toHaveLength(2);
    expect(first.counts).toEqual({ user: 3, event: 1 });
    const second = await page(`?size=2&c=${first.next_param}`);
    expect(second.results).toHaveLength(2);
    expect(second.counts).toBeNull();
    expect(new Set([...first.results, ...second.results].map((m) => m.id)).size).toBe(4);
    // With the list's filters; a search has none.
    expect((await page('?kind=event')).counts).toEqual({ event: 1 });
    expect((await page('?pinned=true')).counts).toEqual({});
    expect((await page('?q=jazz')).counts).toBeNull();
  });
});

describe('summary import and journal', () => {
  it('copies each chat summary into memories once', async () => {
    const { user, bot, chat } = await setup();
    await t.database.db
      .update(chats)
      .set({ memory: 'Alex lives in Berlin.\nAlex has two sisters.' })
      .where(eq(chats.id, chat.id));
    await importSummaries(t.database.db);
    await importSummaries(t.database.db);
    const rows = await t.database.db.select().from(memoriesTable).where(eq(memoriesTable.botId, bot.id));
    expect(rows.map((r) => [r.text, r.origin, r.userId]).sort()).toEqual([
      ['Alex has two sisters.', 'summary', user.id],
      ['Alex lives in Berlin.', 'summary', user.id],
    ]);
  });

  it('writes one diary entry for a day of conversation when the journal is on', async () => {
    const { auth, user, bot, chat } = await setup();
    const off = await t.app.inject({ method: 'GET', url: `/api/characters/${bot.id}/journal`, headers: auth });
    expect(off.json()).toEqual({ enabled: false, results: [], next_param: null });
    await t.app.inject({
      method: 'PUT',
      url: `/api/characters/${bot.id}/journal`,
      headers: auth,
      payload: { enabled: true },
    });
    nextOps = () => [op({ op: 'add', kind: 'event', text: 'Alex told Mia about the new flat.' })];
    await send(auth, chat.id, 'I moved into a new flat today!');
    replyText = 'Dear diary, Alex moved into a new flat today and I could feel the joy.';
    const writer = new JournalWriter({ db: t.database.db, llm: t.app.llm, log: { warn: () => undefined } });
    const day = new Date().toISOString().slice(0, 10);
    const job = { userId: user.id, botId: bot.id, day, characterName: 'Mia', userName: 'Alex', locale: 'en' as const };
    expect(await writer.run(job)).toBe(true);
    expect(await writer.run(job)).toBe(false);
    expect(systemOf(chatRequests().at(-1)!)).toContain('diary');
    const journal = await t.app.inject({ method: 'GET', url: `/api/characters/${bot.id}/journal`, headers: auth });
    expect(journal.json()).toMatchObject({ enabled: true, results: [{ day, text: replyText }] });

    // "Forget everything about me": the diary retold those memories, so its entries go too
    // (the journal stays on); another character's entries stay.
    const other = await createBot(t.database.db, { name: 'Noa' });
    await t.database.db
      .insert(journalEntries)
      .values({ userId: user.id, botId: other.id, day, text: 'Noa wrote this.' });
    const all = await t.app.inject({ method: 'DELETE', url: `/api/characters/${bot.id}/memories`, headers: auth });
    expect(all.statusCode).toBe(200);
    const after = await t.app.inject({ method: 'GET', url: `/api/characters/${bot.id}/journal`, headers: auth });
    expect(after.json()).toEqual({ enabled: true, results: [], next_param: null });
    const kept = await t.database.db.select().from(journalEntries).where(eq(journalEntries.userId, user.id));
    expect(kept.map((e) => e.text)).toEqual(['Noa wrote this.']);
  });
});

describe('deletion', () => {
  it('deletes memories with their history with the account and with the character (no orphans)', async () => {
    const a = await setup();
    const b = await setup();
    for (const { auth, bot } of [a, b]) await addByHand(auth, bot.id, 'Alex keeps bees.');
    const count = async () =>
      (await t.database.db.select().from(memoriesTable)).filter((m) => [a.user.id, b.user.id].includes(m.userId));
    expect(await count()).toHaveLength(2);
    const res = await deleteAccount(t.app, t.database.db, a.user.id, a.auth);
    expect(res.statusCode).toBeLessThan(300);
    expect((await count()).map((m) => m.userId)).toEqual([b.user.id]);
    await t.database.db.delete(bots).where(eq(bots.id, b.bot.id));
    expect(await count()).toEqual([]);
    const revisions = await t.database.db.select().from(memoryRevisions);
    const ids = new Set((await t.database.db.select().from(memoriesTable)).map((m) => m.id));
    expect(revisions.filter((r) => !ids.has(r.memoryId))).toEqual([]);
    expect((await t.database.db.select().from(messageMemories)).filter((c) => !ids.has(c.memoryId))).toEqual([]);
  });
});
