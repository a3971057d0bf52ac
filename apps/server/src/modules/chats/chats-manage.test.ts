import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Chat } from '@reverie/shared';
import { chats, messageReports, messages } from '../../db/schema.js';
import { LocalMediaStorage } from '../../providers/storage/local-storage.js';
import type { MediaStorage } from '../../providers/storage/storage.js';
import { createBot, createMessage, createUser } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { ScriptedLlm } from '../../../test/scripted-llm.js';
import { openStream as sharedOpenStream } from '../../../test/sse-client.js';

/** Managing chats (docs/chat.md "Managing chats"): by id, rename, search, delete, previews. */

let t: TestApp;
const llm = new ScriptedLlm();
let baseUrl: string;
const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-chats-manage-'));
const storage: MediaStorage = new LocalMediaStorage(mediaDir);
afterAll(() => fs.rmSync(mediaDir, { recursive: true, force: true }));

beforeAll(async () => {
  t = await createTestApp({ llm, storage, env: { LLM_TIMEOUT_S: '2', CHAT_MESSAGES_PER_MINUTE: '60' } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
beforeEach(() => {
  llm.script = { mode: 'pieces', pieces: ['Hello', ' there', '!'] };
});

type Auth = { authorization: string };

async function newChat(auth: Auth, botOverrides = {}) {
  const bot = await createBot(t.database.db, { greeting: 'Hi {{user}}, I am {{char}}.', ...botOverrides });
  return { bot, chat: await chatWith(auth, bot.id) };
}

async function chatWith(auth: Auth, botID: string) {
  const res = await t.app.inject({ method: 'POST', url: '/api/chat/create', headers: auth, payload: { botID } });
  expect(res.statusCode).toBe(201);
  return res.json<Chat>();
}

async function list(auth: Auth, query = '') {
  const res = await t.app.inject({ method: 'GET', url: `/api/chats/available${query}`, headers: auth });
  expect(res.statusCode).toBe(200);
  return res.json<Chat[]>();
}

const patch = (auth: Auth, chatId: string, payload: unknown, language = 'en') =>
  t.app.inject({
    method: 'PATCH',
    url: `/api/chat/${chatId}`,
    headers: { ...auth, 'accept-language': language },
    payload: payload as object,
  });

describe('a chat by its id', () => {
  it('GET /api/chat/{id} answers the chat; two chats with one character stay apart', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const { chat: first, bot } = await newChat(auth);
    const second = await chatWith(auth, bot.id);
    expect(second.id).not.toBe(first.id);
    for (const chat of [first, second]) {
      const res = await t.app.inject({ method: 'GET', url: `/api/chat/${chat.id}`, headers: auth });
      expect(res.statusCode).toBe(200);
      expect(res.json<Chat>()).toMatchObject({ id: chat.id, bot: { id: bot.id }, title: null });
    }
  });

  it("`bot_id` lists one character's chats (the chat menu's history), newest first", async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const { chat: first, bot } = await newChat(auth);
    const second = await chatWith(auth, bot.id);
    await newChat(auth);
    const history = await list(auth, `?bot_id=${bot.id}`);
    expect(history.map((c) => c.id)).toEqual([second.id, first.id]);
    expect(await list(auth, '?bot_id=not-a-uuid')).toEqual([]);
  });
});

describe('rename', () => {
  it('sets a trimmed title, shows it in the list, and clears it with null', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const { chat } = await newChat(auth);
    const res = await patch(auth, chat.id, { title: '  Rainy evening  ' });
    expect(res.statusCode).toBe(200);
    expect(res.json<Chat>().title).toBe('Rainy evening');
    expect((await list(auth)).find((c) => c.id === chat.id)?.title).toBe('Rainy evening');
    const cleared = await patch(auth, chat.id, { title: null });
    expect(cleared.json<Chat>().title).toBeNull();
  });

  it("refuses an empty, a too long or a multi-line title with a field message in the user's language", async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const { chat } = await newChat(auth);
    const empty = await patch(auth, chat.id, { title: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: 'validation_error', errors: { title: ['Fill in the field'] } });
    const long = await patch(auth, chat.id, { title: 'x'.repeat(81) });
    expect(long.statusCode).toBe(400);
    expect(long.json().errors.title).toEqual(['A chat title can have at most 80 characters']);
    const russian = await patch(auth, chat.id, { title: 'x'.repeat(81) }, 'ru');
    expect(russian.json().errors.title[0]).not.toBe('A chat title can have at most 80 characters');
    expect(russian.json().errors.title[0]).toMatch(/80/);
    const newline = await patch(auth, chat.id, { title: 'two\nlines' });
    expect(newline.statusCode).toBe(400);
    expect((await patch(auth, chat.id, { title: 'x'.repeat(80) })).statusCode).toBe(200);
  });

  it("another user's chat is a 404", async () => {
    const owner = await createUser(t.app, t.database.db);
    const stranger = await createUser(t.app, t.database.db);
    const { chat } = await newChat(owner.auth);
    expect((await patch(stranger.auth, chat.id, { title: 'Mine now' })).statusCode).toBe(404);
    const read = await t.app.inject({ method: 'GET', url: `/api/chat/${chat.id}`, headers: stranger.auth });
    expect(read.statusCode).toBe(404);
  });
});

describe('search', () => {
  it('finds chats by character name, title and message text, any case; a pattern character is literal', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const { chat: byName } = await newChat(auth, { name: 'Marguerite Zelnik' });
    const { chat: byTitle } = await newChat(auth, { name: 'Otto' });
    await patch(auth, byTitle.id, { title: 'Harbour plans' });
    const { chat: byText } = await newChat(auth, { name: 'Ines' });
    const row = (await t.database.db.select().from(chats).where(eq(chats.id, byText.id)))[0]!;
    await createMessage(t.database.db, row, { text: 'Shall we meet at the LIGHTHOUSE at 100% dusk?' });
    await newChat(auth, { name: 'Unrelated' });

    expect((await list(auth, '?q=zelnik')).map((c) => c.id)).toEqual([byName.id]);
    expect((await list(auth, '?q=HARBOUR')).map((c) => c.id)).toEqual([byTitle.id]);
    expect((await list(auth, '?q=lighthouse')).map((c) => c.id)).toEqual([byText.id]);
    expect((await list(auth, `?q=${encodeURIComponent('100%')}`)).map((c) => c.id)).toEqual([byText.id]);
    expect(await list(auth, `?q=${encodeURIComponent('%')}`)).toHaveLength(1);
    expect(await list(auth, '?q=nothing-like-this')).toEqual([]);
    // An empty query is the whole list.
    expect((await list(auth, '?q=')).length).toBe(4);
  });

  it("never finds another user's chats, nor the AI notice's text", async () => {
    const owner = await createUser(t.app, t.database.db);
    const stranger = await createUser(t.app, t.database.db);
    await newChat(owner.auth, { name: 'Secretive Quill' });
    expect(await list(stranger.auth, '?q=quill')).toEqual([]);
    const { auth } = await createUser(t.app, t.database.db);
    await newChat(auth, { name: 'Bob' });
    // The AI notice speaks of "artificial intelligence": it is not the user's conversation.
    expect(await list(auth, '?q=artificial')).toEqual([]);
  });

  it('refuses a query longer than 100 characters', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const res = await t.app.inject({ method: 'GET', url: `/api/chats/available?q=${'a'.repeat(101)}`, headers: auth });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_error');
  });
});

describe('previews', () => {
  it('show the last real message, never the AI notice or another system notice; a picture by its caption', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const { chat, bot } = await newChat(auth);
    // A new chat: the greeting, not the AI notice that follows it.
    expect((await list(auth))[0]!.last_message).toMatchObject({ role: 'bot', text: expect.stringContaining(bot.name) });
    expect(chat.last_message?.role).toBe('bot');
    const row = (await t.database.db.select().from(chats).where(eq(chats.id, chat.id)))[0]!;
    await createMessage(t.database.db, row, {
      role: 'bot',
      kind: 2,
      text: 'A photo from the garden',
      mediaKey: `chats/${row.userId}/p.webp`,
    });
    await createMessage(t.database.db, row, { role: 'system', kind: 1, text: 'Notice', notice: 'ai_disclosure' });
    await createMessage(t.database.db, row, { role: 'bot', kind: 9999, text: 'processed' });
    const preview = (await list(auth))[0]!.last_message!;
    expect(preview).toMatchObject({ kind: 2, text: 'A photo from the garden' });
  });
});

describe('delete', () => {
  it('removes the chat, its messages and reports, and its pictures, originals and voice files from storage', async () => {
    const { auth, user } = await createUser(t.app, t.database.db);
    const { chat, bot } = await newChat(auth);
    const { chat: kept } = await newChat(auth);
    const row = (await t.database.db.select().from(chats).where(eq(chats.id, chat.id)))[0]!;
    const keys = {
      picture: `chats/${user.id}/${randomUUID()}.webp`,
      original: `originals/${user.id}/${randomUUID()}.webp`,
      voice: `chats/${user.id}/voice-${randomUUID()}.mp3`,
      gallery: `bots/${bot.id}/gallery-${randomUUID()}.webp`,
      otherChat: `chats/${user.id}/${randomUUID()}.webp`,
    };
    for (const key of Object.values(keys)) await storage.put(key, Buffer.from('x'), 'image/webp');
    await createMessage(t.database.db, row, {
      role: 'bot',
      kind: 3,
      text: 'Blurred',
      mediaKey: keys.picture,
      originalKey: keys.original,
    });
    const spoken = await createMessage(t.database.db, row, {
      role: 'bot',
      text: 'Listen',
      audioState: 'ready',
      audioKey: keys.voice,
    });
    // A gallery picture is the character's file: it stays.
    await createMessage(t.database.db, row, { role: 'bot', kind: 2, text: 'Gallery', mediaKey: keys.gallery });
    const keptRow = (await t.database.db.select().from(chats).where(eq(chats.id, kept.id)))[0]!;
    await createMessage(t.database.db, keptRow, { role: 'bot', kind: 2, text: 'Other', mediaKey: keys.otherChat });
    await t.database.db.insert(messageReports).values({ messageId: spoken.id, userId: user.id, reason: 'other' });

    const res = await t.app.inject({ method: 'DELETE', url: `/api/chat/${chat.id}`, headers: auth });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');

    expect(await t.database.db.select().from(chats).where(eq(chats.id, chat.id))).toEqual([]);
    expect(await t.database.db.select().from(messages).where(eq(messages.chatId, chat.id))).toEqual([]);
    expect(await t.database.db.select().from(messageReports).where(eq(messageReports.messageId, spoken.id))).toEqual(
      [],
    );
    expect(await storage.exists(keys.picture)).toBe(false);
    expect(await storage.exists(keys.original)).toBe(false);
    expect(await storage.exists(keys.voice)).toBe(false);
    expect(await storage.exists(keys.gallery)).toBe(true);
    expect(await storage.exists(keys.otherChat)).toBe(true);

    expect((await list(auth)).map((c) => c.id)).toEqual([kept.id]);
    const again = await t.app.inject({ method: 'DELETE', url: `/api/chat/${chat.id}`, headers: auth });
    expect(again.statusCode).toBe(404);
    const history = await t.app.inject({ method: 'GET', url: `/api/chat/history/${chat.id}`, headers: auth });
    expect(history.statusCode).toBe(404);
  });

  it("another user's chat is a 404 and stays whole", async () => {
    const owner = await createUser(t.app, t.database.db);
    const stranger = await createUser(t.app, t.database.db);
    const { chat } = await newChat(owner.auth);
    for (const id of [chat.id, randomUUID(), 'not-a-uuid']) {
      const res = await t.app.inject({ method: 'DELETE', url: `/api/chat/${id}`, headers: stranger.auth });
      expect(res.statusCode, id).toBe(404);
    }
    expect((await list(owner.auth)).map((c) => c.id)).toEqual([chat.id]);
    const guest = await t.app.inject({ method: 'DELETE', url: `/api/chat/${chat.id}` });
    expect(guest.statusCode).toBe(401);
  });

  it('stops a live reply first', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const { chat } = await newChat(auth);
    llm.script = { mode: 'then-hang', pieces: ['Still', ' typing'] };
    const stream = await sharedOpenStream(baseUrl, auth, `/api/chat/${chat.id}/messages`, {
      client_id: randomUUID(),
      text: 'Talk to me',
    });
    await stream.readUntil((e) => e.event === 'delta' && e.data.text.endsWith(' typing'));
    const res = await t.app.inject({ method: 'DELETE', url: `/api/chat/${chat.id}`, headers: auth });
    expect(res.statusCode).toBe(204);
    const final = await stream.readUntil((e) => e.event === 'bot_message' && e.data.state !== 'streaming');
    expect(final.data.state).toBe('stopped');
    await t.app.replies.idle();
    expect(await t.database.db.select().from(messages).where(eq(messages.chatId, chat.id))).toEqual([]);
  });
});

describe('the cut of a spoken reply (a call, docs/calls.md "Barge-in")', () => {
  it('keeps the words heard, deletes a reply nobody heard, and never touches a text message', async () => {
    const { user } = await createUser(t.app, t.database.db);
    const bot = await createBot(t.database.db);
    const [chat] = await t.database.db.insert(chats).values({ userId: user.id, botId: bot.id }).returning();
    const owned = { id: chat!.id, userId: user.id };
    const said = await createMessage(t.database.db, owned, { spoken: true, text: 'What is your favourite song?' });
    const spoken = (text: string) =>
      createMessage(t.database.db, owned, { role: 'bot', spoken: true, replyTo: said.id, text });
    const heard = await spoken('I love old jazz songs. Shall I hum one?');
    expect(await t.app.replies.cutSpokenReply(user.id, chat!.id, heard.id, 'I love old jazz')).toBe(true);
    const [kept] = await t.database.db.select().from(messages).where(eq(messages.id, heard.id));
    expect(kept).toMatchObject({ text: 'I love old jazz', state: 'stopped' });

    const unheard = await spoken('Nobody heard this.');
    expect(await t.app.replies.cutSpokenReply(user.id, chat!.id, unheard.id, '  ')).toBe(true);
    expect(await t.database.db.select().from(messages).where(eq(messages.id, unheard.id))).toEqual([]);

    const typed = await createMessage(t.database.db, owned, { role: 'bot', text: 'A typed reply.' });
    expect(await t.app.replies.cutSpokenReply(user.id, chat!.id, typed.id, '')).toBe(false);
    const [intact] = await t.database.db.select().from(messages).where(eq(messages.id, typed.id));
    expect(intact).toMatchObject({ text: 'A typed reply.', state: 'done' });
    // Another user's spoken reply is out of reach.
    const { user: stranger } = await createUser(t.app, t.database.db);
    expect(await t.app.replies.cutSpokenReply(stranger.id, chat!.id, kept!.id, '')).toBe(false);
  });
});
