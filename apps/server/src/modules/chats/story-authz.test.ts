/**
 * Who may shape whose story (issues 28 and 29), table-driven: every route on another user's chat,
 * message, branch, lorebook or memory answers 404 `not_found` and changes nothing; a message id
 * of another user's chat used with one's own chat id is just as unknown; without a token, 401.
 * The per-route behaviour is tested beside each feature (story, lorebooks, memories, author's
 * note, export); this file holds the cross-user cases in one place. PGlite and PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Chat, Lorebook, Memory, Message } from '@reverie/shared';
import { chats, messages } from '../../db/schema.js';
import { createBot, createUser } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { ScriptedLlm } from '../../../test/scripted-llm.js';

let t: TestApp;
const llm = new ScriptedLlm();
type Auth = { authorization: string };
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

beforeAll(async () => {
  llm.script = { mode: 'pieces', pieces: ['Hello', ' there.'] };
  t = await createTestApp({ llm, env: { CHAT_MESSAGES_PER_MINUTE: '200' } });
});

async function call<T>(auth: Auth | null, method: Method, url: string, payload?: object) {
  const res = await t.app.inject({ method, url, headers: auth ?? {}, payload });
  return { status: res.statusCode, body: (res.body ? res.json() : null) as T };
}

/** A user with a chat of two exchanges, a branch of it, a lorebook and a memory. */
async function storyOf(name: string) {
  const { auth, user } = await createUser(t.app, t.database.db);
  const bot = await createBot(t.database.db, { name, greeting: 'Hi.', authorId: user.id, visibility: 'private' });
  const chat = (await call<Chat>(auth, 'POST', '/api/chat/create', { botID: bot.id })).body;
  for (const text of ['one', 'two']) {
    const sent = await t.app.inject({
      method: 'POST',
      url: `/api/chat/${chat.id}/messages`,
      headers: auth,
      payload: { client_id: randomUUID(), text },
    });
    expect(sent.statusCode).toBe(200);
    await t.app.replies.idle();
  }
  const history = (await call<{ results: Message[] }>(auth, 'GET', `/api/chat/history/${chat.id}?size=50`)).body
    .results;
  const userMessage = history.find((m) => m.text === 'one')!;
  const reply = history.find((m) => m.role === 'bot' && m.text === 'Hello there.')!;
  const branch = (await call<Chat>(auth, 'POST', `/api/chat/${chat.id}/messages/${userMessage.id}/branch`)).body;
  const book = (await call<Lorebook>(auth, 'POST', '/api/lorebooks', { name: `${name}'s lore` })).body;
  const memory = (
    await call<Memory>(auth, 'POST', `/api/characters/${bot.id}/memories`, { kind: 'user', text: `${name} likes tea` })
  ).body;
  expect([chat.id, branch.id, book.id, memory.id].every(Boolean)).toBe(true);
  return { auth, user, bot, chat, branch, userMessage, reply, book, memory };
}

/** Every route of the two issues that names a chat, a message, a book or a memory of `s`. */
function routesOn(s: Awaited<ReturnType<typeof storyOf>>, chatId = s.chat.id) {
  const m = s.userMessage.id;
  const r = s.reply.id;
  return [
    ['PATCH', `/api/chat/${chatId}/messages/${m}`, { text: 'changed' }],
    ['DELETE', `/api/chat/${chatId}/messages/${m}`],
    ['DELETE', `/api/chat/${chatId}/messages/${m}?from=1`],
    ['POST', `/api/chat/${chatId}/messages/${m}/branch`],
    ['GET', `/api/chat/${chatId}/around/${m}`],
    ['GET', `/api/chat/${chatId}/messages/${r}/prompt`],
    ['POST', `/api/chat/${chatId}/messages/${r}/regenerate`],
    ['POST', `/api/chat/${chatId}/messages/${r}/select`, { index: 0 }],
  ] as [Method, string, object?][];
}

function chatRoutes(chatId: string, bookId: string) {
  return [
    ['GET', `/api/chat/${chatId}/branches`],
    ['GET', `/api/chat/${chatId}/search?q=one`],
    ['POST', `/api/chat/${chatId}/impersonate`],
    ['POST', `/api/chat/${chatId}/suggestions`],
    ['GET', `/api/chat/${chatId}/lorebooks`],
    ['PUT', `/api/chat/${chatId}/lorebooks`, { lorebook_ids: [bookId] }],
    ['GET', `/api/chat/${chatId}/author-note`],
    ['PUT', `/api/chat/${chatId}/author-note`, { text: 'Mine now.', depth: 2 }],
    ['GET', `/api/chat/${chatId}/memory`],
    ['PUT', `/api/chat/${chatId}/memory`, { memory: 'Mine now.' }],
    ['GET', `/api/chat/${chatId}/export?format=jsonl`],
    ['GET', `/api/chat/${chatId}/export?format=txt`],
  ] as [Method, string, object?][];
}

function ownedRoutes(s: Awaited<ReturnType<typeof storyOf>>) {
  return [
    ...routesOn(s),
    ...routesOn(s, s.branch.id),
    ...chatRoutes(s.chat.id, s.book.id),
    ...chatRoutes(s.branch.id, s.book.id),
    ['GET', `/api/lorebooks/${s.book.id}`],
    ['GET', `/api/lorebooks/${s.book.id}/export?format=character_book`],
    ['GET', `/api/characters/${s.bot.id}/lorebook`],
    ['GET', `/api/characters/${s.bot.id}/memories`],
    ['POST', `/api/characters/${s.bot.id}/memories`, { kind: 'user', text: 'Planted by a stranger' }],
    ['DELETE', `/api/characters/${s.bot.id}/memories`],
    ['GET', `/api/characters/${s.bot.id}/journal`],
    ['PUT', `/api/characters/${s.bot.id}/journal`, { enabled: true }],
    ['GET', `/api/memories/${s.memory.id}`],
    ['GET', `/api/memories/${s.memory.id}/history`],
    ['PATCH', `/api/memories/${s.memory.id}`, { pinned: true }],
    ['DELETE', `/api/memories/${s.memory.id}`],
  ] as [Method, string, object?][];
}

/** What the owner sees, to compare before and after the stranger's tries. */
async function snapshot(s: Awaited<ReturnType<typeof storyOf>>) {
  const rows = await t.database.db.select().from(messages).where(eq(messages.chatId, s.chat.id));
  const chat = await t.database.db.select().from(chats).where(eq(chats.id, s.chat.id));
  return {
    messages: rows.map((m) => [m.id, m.text, m.editedAt?.toISOString() ?? null]).sort(),
    chat: { note: chat[0]!.authorNote, memory: chat[0]!.memory },
    branches: (await call<{ chats: unknown[] }>(s.auth, 'GET', `/api/chat/${s.chat.id}/branches`)).body.chats.length,
    attached: (await call(s.auth, 'GET', `/api/chat/${s.chat.id}/lorebooks`)).body,
    memories: (await call(s.auth, 'GET', `/api/characters/${s.bot.id}/memories`)).body,
    journal: (await call(s.auth, 'GET', `/api/characters/${s.bot.id}/journal`)).body,
  };
}

describe("another user's story", () => {
  it('every route on it answers 404 not_found and changes nothing; without a token 401', async () => {
    const owner = await storyOf('Mira');
    const stranger = await storyOf('Nell');
    const before = await snapshot(owner);
    for (const [method, url, payload] of ownedRoutes(owner)) {
      const res = await call<{ code: string }>(stranger.auth, method, url, payload);
      expect([res.status, res.body?.code], `${method} ${url}`).toEqual([404, 'not_found']);
      const anonymous = await call<{ code: string }>(null, method, url, payload);
      expect(anonymous.status, `anonymous ${method} ${url}`).toBe(401);
    }
    await t.app.replies.idle();
    expect(await snapshot(owner)).toEqual(before);
  });

  it("another user's message ids are unknown in one's own chat and branch", async () => {
    const owner = await storyOf('Ada');
    const stranger = await storyOf('Bea');
    const before = await snapshot(owner);
    // The stranger's own chat ids with the owner's message ids.
    const mixed = { ...owner, chat: stranger.chat, branch: stranger.branch };
    for (const [method, url, payload] of [...routesOn(mixed), ...routesOn(mixed, stranger.branch.id)]) {
      const res = await call<{ code: string }>(stranger.auth, method, url, payload);
      expect([res.status, res.body?.code], `${method} ${url}`).toEqual([404, 'not_found']);
    }
    await t.app.replies.idle();
    expect(await snapshot(owner)).toEqual(before);
  });

  it("one's own chat refuses another user's lorebook with a field message", async () => {
    const owner = await storyOf('Cleo');
    const stranger = await storyOf('Dora');
    const res = await call<{ code: string; errors: Record<string, string[]> }>(
      stranger.auth,
      'PUT',
      `/api/chat/${stranger.chat.id}/lorebooks`,
      { lorebook_ids: [stranger.book.id, owner.book.id] },
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
    expect(Object.keys(res.body.errors)).toEqual(['lorebook_ids.1']);
    const attached = await call<{ books: { id: string; attached: boolean }[] }>(
      stranger.auth,
      'GET',
      `/api/chat/${stranger.chat.id}/lorebooks`,
    );
    expect(attached.body.books.map((b) => b.id)).toEqual([stranger.book.id]);
    expect(attached.body.books[0]!.attached).toBe(false);
  });
});
