import { randomUUID } from 'node:crypto';
import { count, eq, sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Around, Chat, ChatSearch, ChatTree, DeletedMessages, Message } from '@reverie/shared';
import { bots, chatSegments, memories, memoryRevisions, messages } from '../../db/schema.js';
import type { MediaUrls } from '../../lib/media-urls.js';
import { createBot, createUser, openChatWithNewBot } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { parseSse, ScriptedLlm } from '../../../test/scripted-llm.js';
import { StoryService } from './story.service.js';

/**
 * Shaping the story (issue 29): edit, delete, branches that share rows, search in a chat, a
 * page around a message, "Write my reply" and suggestions — on PGlite and on PostgreSQL
 * (`TEST_DB=postgres`).
 */
let t: TestApp;
const llm = new ScriptedLlm();
type Auth = { authorization: string };

beforeAll(async () => {
  t = await createTestApp({ llm, env: { CHAT_MESSAGES_PER_MINUTE: '200' } });
});
beforeEach(() => {
  llm.script = { mode: 'pieces', pieces: ['Hello', ' there', '!'] };
});

async function newChat(auth: Auth) {
  return (await openChatWithNewBot(t.app, t.database.db, auth, { greeting: 'Hi, I am {{char}}.' })).chat;
}

async function send(auth: Auth, chatId: string, text: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/chat/${chatId}/messages`,
    headers: auth,
    payload: { client_id: randomUUID(), text },
  });
  expect(res.statusCode).toBe(200);
  await t.app.replies.idle();
  return parseSse(res.body);
}

/** Regenerates a reply with the model saying `pieces`, and waits for it to be written. */
async function regenerate(auth: Auth, chatId: string, messageId: string, pieces: string[]) {
  llm.script = { mode: 'pieces', pieces };
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/chat/${chatId}/messages/${messageId}/regenerate`,
    headers: auth,
  });
  expect(res.statusCode).toBe(200);
  await t.app.replies.idle();
}

async function shown(auth: Auth, chatId: string): Promise<Message[]> {
  const res = await t.app.inject({ method: 'GET', url: `/api/chat/history/${chatId}?size=100`, headers: auth });
  expect(res.statusCode).toBe(200);
  return res.json<{ results: Message[] }>().results.reverse();
}
const texts = (list: Message[]) => list.filter((m) => m.role !== 'system').map((m) => m.text);

async function call<T>(auth: Auth, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) {
  const res = await t.app.inject({ method, url, headers: auth, payload });
  return { status: res.statusCode, body: res.json<T>() };
}

/** A chat with two exchanges: greeting, "one" → Hello there!, "two" → Hello there!. */
async function twoExchanges(auth: Auth) {
  const chat = await newChat(auth);
  await send(auth, chat.id, 'one');
  await send(auth, chat.id, 'two');
  return { chat, history: await shown(auth, chat.id) };
}

const messageCount = async () => (await t.database.db.select({ n: count() }).from(messages))[0]!.n;

describe('branches', () => {
  it('a branch shares the rows up to its fork (none copied) and the tree shows both', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const { chat, history } = await twoExchanges(auth);
    const fork = history.find((m) => m.role === 'bot' && m.reply_to)!; // the reply to "one"
    const before = await messageCount();
    const made = await call<Chat>(auth, 'POST', `/api/chat/${chat.id}/messages/${fork.id}/branch`);
    expect(made.status).toBe(201);
    const branch = made.body;
    expect(branch).toMatchObject({ parent_chat_id: chat.id, root_chat_id: chat.id, fork_message_id: fork.id });
    expect(branch.last_message?.id).toBe(fork.id);
    expect(await messageCount()).toBe(before);
    const branchShown = await shown(auth, branch.id);
    expect(texts(branchShown)).toEqual(['Hi, I am ' + branch.bot.name + '.', 'one', 'Hello there!']);
    // The rows are the root's own.
    expect(branchShown.filter((m) => m.role !== 'system').every((m) => m.chat_id === chat.id)).toBe(true);

    await send(auth, branch.id, 'three');
    expect(texts(await shown(auth, branch.id)).slice(-2)).toEqual(['three', 'Hello there!']);
    expect(texts(await shown(auth, chat.id))).toHaveLength(5);
    // The branch's prompt is the shared history plus its own message.
    const prompt = llm.requests.at(-1)!.messages.map((m) => m.content);
    expect(prompt.join('\n')).toContain('one');
    expect(prompt.join('\n')).not.toContain('two');

    const tree = await call<ChatTree>(auth, 'GET', `/api/chat/${branch.id}/branches`);
    expect(tree.body.root_id).toBe(chat.id);
    expect(tree.body.chats.map((c) => [c.id, c.parent_chat_id, c.message_count])).toEqual([
      [chat.id, null, 5],
      [branch.id, chat.id, 5],
    ]);
    const list = await call<Chat[]>(auth, 'GET', '/api/chats/available');
    expect(list.body.find((c) => c.id === branch.id)?.root_chat_id).toBe(chat.id);
  });

  it('branches a long chat from the middle with one segment row and no message copied', async () => {
    const { auth, user } = await createUser(t.app, t.database.db);
    const chat = await newChat(auth);
    await t.database.db.execute(sql`
      insert into messages (chat_id, user_id, role, text)
      select ${chat.id}::uuid, ${user.id}::uuid, case when i % 2 = 0 then 'user' else 'bot' end,
        'line ' || i || case when i = 7 then ' unicorn' else '' end
      from generate_series(1, 3000) i`);
    const middle = await t.database.db.select({ id: messages.id }).from(messages).where(eq(messages.text, 'line 1500'));
    const before = await messageCount();
    const made = await call<Chat>(auth, 'POST', `/api/chat/${chat.id}/messages/${middle[0]!.id}/branch`);
    expect(made.status).toBe(201);
    expect(await messageCount()).toBe(before);
    const segments = await t.database.db.select().from(chatSegments).where(eq(chatSegments.chatId, made.body.id));
    expect(segments).toHaveLength(1);
    const page = await call<{ results: Message[] }>(auth, 'GET', `/api/chat/history/${made.body.id}?size=3`);
    expect(page.body.results.map((m) => m.text)).toEqual(['line 1500', 'line 1499', 'line 1498']);
    // Search: a frequent word among the newest messages, a rare one far back (the word index).
    const frequent = await call<ChatSearch>(auth, 'GET', `/api/chat/${chat.id}/search?q=line`);
    expect(frequent.body.results).toHaveLength(50);
    expect(frequent.body.results[0]!.message.text).toBe('line 3000');
    const rare = await call<ChatSearch>(auth, 'GET', `/api/chat/${chat.id}/search?q=unicorns`);
    expect(rare.body.results.map((h) => h.message.text)).toEqual(['line 7 unicorn']);
    const inBranch = await call<ChatSearch>(auth, 'GET', `/api/chat/${made.body.id}/search?q=unicorn`);
    expect(inBranch.body.results.map((h) => h.message.text)).toEqual(['line 7 unicorn']);
  });

  it('deleting in a branch never touches the root; the root deleting a shared row keeps the branch', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const { chat, history } = await twoExchanges(auth);
    const [one, reply] = history.filter((m) => m.role !== 'system').slice(1);
    const branch = (await call<Chat>(auth, 'POST', `/api/chat/${chat.id}/messages/${reply!.id}/branch`)).body;
    const removed = await call<DeletedMessages>(auth, 'DELETE', `/api/chat/${branch.id}/messages/${one!.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.removed).toEqual([one!.id]);
    expect(texts(await shown(auth, branch.id))).not.toContain('one');
    expect(texts(await shown(auth, chat.id))).toContain('one');
    // "Delete from here" in the branch, at a shared row: the root keeps all five.
    await call(auth, 'DELETE', `/api/chat/${branch.id}/messages/${reply!.id}?from=1`);
    expect(texts(await shown(auth, branch.id))).toHaveLength(1);
    expect(texts(await shown(auth, chat.id))).toHaveLength(5);
    // The root deletes its "one", which the branch shared: hidden in the root, kept in the branch.
    const again = (await call<Chat>(auth, 'POST', `/api/chat/${chat.id}/messages/${reply!.id}/branch`)).body;
    await call(auth, 'DELETE', `/api/chat/${chat.id}/messages/${one!.id}`);
    expect(texts(await shown(auth, chat.id))).not.toContain('one');
    expect(texts(await shown(auth, again.id))).toContain('one');
  });

  it("a reply's prompt view is the chat's history's: its own and the shared rows up to the fork, else 404", async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const { chat, history } = await twoExchanges(auth);
    const [first, second] = history.filter((m) => m.role === 'bot' && m.text === 'Hello there!');
    const branch = (await call<Chat>(auth, 'POST', `/api/chat/${chat.id}/messages/${first!.id}/branch`)).body;
    await send(auth, branch.id, 'three');
    const own = (await shown(auth, branch.id)).at(-1)!;
    expect(own).toMatchObject({ role: 'bot', chat_id: branch.id });
    const trace = (chatId: string, messageId: string) =>
      call<{ message_id: string; code?: string }>(auth, 'GET', `/api/chat/${chatId}/messages/${messageId}/prompt`);

    // The root's reply before the fork is the branch's history too; its reply after it is not.
    expect((await trace(chat.id, first!.id)).body.message_id).toBe(first!.id);
    expect((await trace(branch.id, first!.id)).body.message_id).toBe(first!.id);
    expect((await trace(branch.id, own.id)).body.message_id).toBe(own.id);
    for (const [chatId, messageId] of [
      [branch.id, second!.id],
      [chat.id, own.id],
    ] as const) {
      const refused = await trace(chatId, messageId);
      expect(refused.status, `${chatId} ${messageId}`).toBe(404);
      expect(refused.body.code).toBe('not_found');
    }
    // Another chat of the same user, with another character: none of these replies is its.
    const other = await newChat(auth);
    expect((await trace(other.id, first!.id)).status).toBe(404);
    expect((await trace(other.id, own.id)).status).toBe(404);
    // Deleted in the branch: gone from the branch's view, still the root's.
    await call(auth, 'DELETE', `/api/chat/${branch.id}/messages/${first!.id}`);
    expect((await trace(branch.id, first!.id)).status).toBe(404);
    expect((await trace(chat.id, first!.id)).status).toBe(200);
  });

  it('a message deleted for good leaves the sources of the memories drawn from it (the app wires the memories module)', async () => {
    const { auth, user } = await createUser(t.app, t.database.db);
    const { chat, history } = await twoExchanges(auth);
    const [one, reply] = history.filter((m) => m.role !== 'system').slice(1);
    const [memory] = await t.database.db
      .insert(memories)
      .values({
        userId: user.id,
        botId: chat.bot.id,
        kind: 'user',
        text: 'Likes the number one',
        origin: 'model',
        sourceMessageIds: [one!.id, reply!.id],
        dedupeKey: `likes-one-${randomUUID()}`,
      })
      .returning();
    await t.database.db.insert(memoryRevisions).values({
      memoryId: memory!.id,
      change: 'created',
      origin: 'model',
      kind: 'user',
      text: memory!.text,
      importance: 3,
      pinned: false,
      sourceMessageIds: [one!.id, reply!.id],
    });
    expect((await call(auth, 'DELETE', `/api/chat/${chat.id}/messages/${one!.id}`)).status).toBe(200);
    const [after] = await t.database.db.select().from(memories).where(eq(memories.id, memory!.id));
    expect(after!.sourceMessageIds).toEqual([reply!.id]);
    const revisions = await t.database.db
      .select()
      .from(memoryRevisions)
      .where(eq(memoryRevisions.memoryId, memory!.id));
    expect(revisions.map((r) => r.sourceMessageIds)).toEqual([[reply!.id]]);
  });

  it('deleting rows the chat has alone removes them and tells onMessagesDeleted', async () => {
    const { auth, user } = await createUser(t.app, t.database.db);
    const { chat, history } = await twoExchanges(auth);
    const told: string[][] = [];
    const story = new StoryService({
      db: t.database.db,
      bots: { findBotById: async () => null },
      urls: { url: () => '' } as unknown as MediaUrls,
      onMessagesDeleted: async (event) => void told.push(event.messageIds),
    });
    const two = history.find((m) => m.text === 'two')!;
    const result = await story.delete(user.id, chat.id, two.id, true);
    expect(result.removed).toHaveLength(2);
    expect(told).toEqual([result.removed]);
    const left = await t.database.db.select({ id: messages.id }).from(messages).where(eq(messages.chatId, chat.id));
    expect(left.map((m) => m.id)).not.toContain(two.id);
    expect(texts(await shown(auth, chat.id)).slice(1)).toEqual(['one', 'Hello there!']);
  });
});

describe('edit', () => {
  it("edits the user's message (marked), then regenerates from it with the edited text", async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const { chat, history } = await twoExchanges(auth);
    const two = history.find((m) => m.text === 'two')!;
    const edited = await call<Message>(auth, 'PATCH', `/api/chat/${chat.id}/messages/${two.id}`, {
      text: 'two, rewritten',
    });
    expect(edited.status).toBe(200);
    expect(edited.body.text).toBe('two, rewritten');
    expect(edited.body.edited_at).not.toBeNull();
    const reply = history.at(-1)!;
    await regenerate(auth, chat.id, reply.id, ['Again']);
    const last = llm.requests.at(-1)!.messages;
    expect(last.filter((m) => m.role === 'user').at(-1)!.content).toBe('two, rewritten');
    expect(texts(await shown(auth, chat.id)).slice(-2)).toEqual(['two, rewritten', 'Again']);
  });

  it("rewrites the character's reply as a new alternative, the original kept as a swipe", async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const { chat, history } = await twoExchanges(auth);
    const reply = history.at(-1)!;
    const rewritten = await call<Message>(auth, 'PATCH', `/api/chat/${chat.id}/messages/${reply.id}`, {
      text: 'A better answer.',
    });
    expect(rewritten.body).toMatchObject({
      text: 'A better answer.',
      alt_index: 1,
      alt_count: 2,
      reply_to: reply.reply_to,
    });
    expect(rewritten.body.edited_at).not.toBeNull();
    const back = await call<Message>(auth, 'POST', `/api/chat/${chat.id}/messages/${rewritten.body.id}/select`, {
      index: 0,
    });
    expect(back.body.text).toBe('Hello there!');
  });

  it('an old reply regenerated or rewritten keeps its place (and its day) in the history and the prompt', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const { chat, history } = await twoExchanges(auth);
    const first = history.find((m) => m.text === 'one')!;
    const oldReply = history[history.indexOf(first) + 1]!;
    await regenerate(auth, chat.id, oldReply.id, ['Regenerated']);
    let now = await shown(auth, chat.id);
    expect(texts(now).slice(-4)).toEqual(['one', 'Regenerated', 'two', 'Hello there!']);
    const regenerated = now.find((m) => m.text === 'Regenerated')!;
    expect(regenerated).toMatchObject({ alt_index: 1, alt_count: 2, created_at: oldReply.created_at });
    const rewritten = await call<Message>(auth, 'PATCH', `/api/chat/${chat.id}/messages/${regenerated.id}`, {
      text: 'Rewritten.',
    });
    expect(rewritten.body).toMatchObject({ alt_index: 2, created_at: oldReply.created_at });
    now = await shown(auth, chat.id);
    expect(texts(now).slice(-4)).toEqual(['one', 'Rewritten.', 'two', 'Hello there!']);
    // Swiping back shows the first text in the same place.
    await call(auth, 'POST', `/api/chat/${chat.id}/messages/${regenerated.id}/select`, { index: 0 });
    expect(texts(await shown(auth, chat.id)).slice(-4)).toEqual(['one', 'Hello there!', 'two', 'Hello there!']);
    await call(auth, 'POST', `/api/chat/${chat.id}/messages/${regenerated.id}/select`, { index: 2 });
    // The list's preview is still the newest message, and the next prompt has the rewrite in its place.
    const list = await call<Chat[]>(auth, 'GET', '/api/chats/available');
    expect(list.body.find((c) => c.id === chat.id)!.last_message!.id).toBe(now.at(-1)!.id);
    await send(auth, chat.id, 'three');
    const prompt = llm.requests
      .at(-1)!
      .messages.filter((m) => m.role !== 'system')
      .map((m) => m.content);
    expect(prompt.slice(-5)).toEqual(['one', 'Rewritten.', 'two', 'Hello there!', 'three']);
  });

  it('an old reply regenerated in a branch keeps its place there; an older branch of that branch does not get it', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const { chat, history } = await twoExchanges(auth);
    const branch = (await call<Chat>(auth, 'POST', `/api/chat/${chat.id}/messages/${history.at(-1)!.id}/branch`)).body;
    await send(auth, branch.id, 'three');
    const inBranch = await shown(auth, branch.id);
    const sub = (await call<Chat>(auth, 'POST', `/api/chat/${branch.id}/messages/${inBranch.at(-1)!.id}/branch`)).body;
    const oldReply = history[history.findIndex((m) => m.text === 'one') + 1]!;
    await regenerate(auth, branch.id, oldReply.id, ['Branch only']);
    expect(texts(await shown(auth, branch.id)).slice(-6)).toEqual([
      'one',
      'Branch only',
      'two',
      'Hello there!',
      'three',
      'Hello there!',
    ]);
    expect(texts(await shown(auth, sub.id))).not.toContain('Branch only');
    expect(texts(await shown(auth, chat.id))).not.toContain('Branch only');
  });

  it('an edit in a branch of a shared message is the branch’s own; the root keeps its text', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const { chat, history } = await twoExchanges(auth);
    const one = history.find((m) => m.text === 'one')!;
    const branch = (await call<Chat>(auth, 'POST', `/api/chat/${chat.id}/messages/${history.at(-1)!.id}/branch`)).body;
    await call(auth, 'PATCH', `/api/chat/${branch.id}/messages/${one.id}`, { text: 'uno' });
    expect(texts(await shown(auth, branch.id))).toContain('uno');
    expect(texts(await shown(auth, chat.id))).toContain('one');
    await send(auth, branch.id, 'tres');
    const prompt = llm.requests
      .at(-1)!
      .messages.filter((m) => m.role === 'user')
      .map((m) => m.content);
    expect(prompt).toContain('uno');
    expect(prompt).not.toContain('one');
    // Regenerating a shared reply in the branch writes the branch's own alternative.
    const rootReply = history.at(-1)!;
    const swipe = await call(auth, 'POST', `/api/chat/${branch.id}/messages/${rootReply.id}/select`, { index: 0 });
    expect(swipe.status).toBe(409);
  });

  it('validates, authorises and refuses pictures and notices', async () => {
    const owner = await createUser(t.app, t.database.db);
    const stranger = await createUser(t.app, t.database.db);
    const { chat, history } = await twoExchanges(owner.auth);
    const one = history.find((m) => m.text === 'one')!;
    const notice = history.find((m) => m.role === 'system')!;
    expect((await call(owner.auth, 'PATCH', `/api/chat/${chat.id}/messages/${one.id}`, { text: '  ' })).status).toBe(
      400,
    );
    expect((await call(owner.auth, 'PATCH', `/api/chat/${chat.id}/messages/${notice.id}`, { text: 'x' })).status).toBe(
      404,
    );
    for (const [method, url, payload] of [
      ['PATCH', `/api/chat/${chat.id}/messages/${one.id}`, { text: 'mine' }],
      ['DELETE', `/api/chat/${chat.id}/messages/${one.id}`, undefined],
      ['POST', `/api/chat/${chat.id}/messages/${one.id}/branch`, undefined],
      ['GET', `/api/chat/${chat.id}/branches`, undefined],
      ['GET', `/api/chat/${chat.id}/search?q=one`, undefined],
      ['GET', `/api/chat/${chat.id}/around/${one.id}`, undefined],
      ['GET', `/api/chat/history/${chat.id}`, undefined],
      ['POST', `/api/chat/${chat.id}/impersonate`, undefined],
      ['POST', `/api/chat/${chat.id}/suggestions`, undefined],
    ] as const) {
      const res = await call<{ code: string }>(stranger.auth, method, url, payload);
      expect([res.status, res.body.code], `${method} ${url}`).toEqual([404, 'not_found']);
    }
    // Reads run beside their access check: a chat id that is no id is still a 404, never a 500.
    for (const url of [
      '/api/chat/history/not-a-uuid',
      '/api/chat/not-a-uuid/search?q=one',
      `/api/chat/not-a-uuid/around/${one.id}`,
      `/api/chat/${chat.id}/around/not-a-uuid`,
    ]) {
      const res = await call<{ code: string }>(owner.auth, 'GET', url);
      expect([res.status, res.body.code], url).toEqual([404, 'not_found']);
    }
    const branchOfNothing = await call<{ code: string }>(owner.auth, 'POST', '/api/chat/not-a-uuid/messages/x/branch');
    expect([branchOfNothing.status, branchOfNothing.body.code]).toEqual([404, 'not_found']);
    expect(texts(await shown(owner.auth, chat.id))).toContain('one');
  });
});

describe('search and around', () => {
  it('finds Chinese and Russian words (stems, phrases) with the found words highlighted', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const chat = await newChat(auth);
    await send(auth, chat.id, '我们明天去咖啡馆吧');
    await send(auth, chat.id, 'Вчера я видел кошку в саду');
    await send(auth, chat.id, 'The stories were long');
    const zh = await call<ChatSearch>(auth, 'GET', `/api/chat/${chat.id}/search?q=${encodeURIComponent('咖啡馆')}`);
    expect(zh.body.results.map((h) => h.message.text)).toEqual(['我们明天去咖啡馆吧']);
    expect(zh.body.results[0]!.highlights).toEqual([[5, 8]]);
    // Not every character in any order: a phrase.
    const none = await call<ChatSearch>(auth, 'GET', `/api/chat/${chat.id}/search?q=${encodeURIComponent('馆啡')}`);
    expect(none.body.results).toEqual([]);
    const ru = await call<ChatSearch>(auth, 'GET', `/api/chat/${chat.id}/search?q=${encodeURIComponent('кошка')}`);
    expect(ru.body.results.map((h) => h.message.text)).toEqual(['Вчера я видел кошку в саду']);
    const hit = ru.body.results[0]!;
    expect(hit.message.text.slice(...hit.highlights[0]!)).toBe('кошку');
    const en = await call<ChatSearch>(auth, 'GET', `/api/chat/${chat.id}/search?q=story`);
    expect(en.body.results.map((h) => h.message.text)).toEqual(['The stories were long']);
    expect((await call(auth, 'GET', `/api/chat/${chat.id}/search?q=`)).status).toBe(400);
  });

  it('a page around a message: it, the older and the newer ones, with cursors', async () => {
    const { auth, user } = await createUser(t.app, t.database.db);
    const chat = await newChat(auth);
    await t.database.db.execute(sql`
      insert into messages (chat_id, user_id, role, text)
      select ${chat.id}::uuid, ${user.id}::uuid, 'user', 'n' || i from generate_series(1, 60) i`);
    const [target] = await t.database.db.select().from(messages).where(eq(messages.text, 'n20'));
    const page = await call<Around>(auth, 'GET', `/api/chat/${chat.id}/around/${target!.id}?size=10`);
    expect(page.body.results.map((m) => m.text)).toEqual([
      'n25',
      'n24',
      'n23',
      'n22',
      'n21',
      'n20',
      'n19',
      'n18',
      'n17',
      'n16',
    ]);
    expect(page.body.has_newer).toBe(true);
    const older = await call<{ results: Message[] }>(
      auth,
      'GET',
      `/api/chat/history/${chat.id}?size=2&c=${page.body.next_param}`,
    );
    expect(older.body.results.map((m) => m.text)).toEqual(['n15', 'n14']);
  });
});

describe('write my reply', () => {
  it('streams the user’s next line and never sends or saves it', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const { chat } = await twoExchanges(auth);
    const before = await messageCount();
    const requests = llm.requests.length;
    llm.script = { mode: 'pieces', pieces: ['I lean', ' closer.'] };
    const res = await t.app.inject({ method: 'POST', url: `/api/chat/${chat.id}/impersonate`, headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/event-stream');
    const events = parseSse(res.body) as { event: string; data: { text: string } }[];
    expect(events.map((e) => e.event)).toEqual(['delta', 'delta', 'done']);
    expect(events.at(-1)!.data.text).toBe('I lean closer.');
    await t.app.replies.idle();
    expect(await messageCount()).toBe(before);
    expect(llm.requests.length).toBe(requests + 1);
    const prompt = llm.requests.at(-1)!.messages;
    expect(prompt.at(-1)).toMatchObject({ role: 'system' });
    expect(prompt.at(-1)!.content).toContain('next message');
  });

  it('writes from the character as the user reads her (her translated card in their language)', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const bot = await createBot(t.database.db, { description: 'A lighthouse keeper.' });
    await t.database.db
      .update(bots)
      .set({ translations: { de: { description: 'Eine Leuchtturmwärterin.' } } })
      .where(eq(bots.id, bot.id));
    const made = await call<Chat>(auth, 'POST', '/api/chat/create', { botID: bot.id });
    llm.script = { mode: 'pieces', pieces: ['Ich komme näher.'] };
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/chat/${made.body.id}/impersonate`,
      headers: { ...auth, 'accept-language': 'de' },
    });
    expect(res.statusCode).toBe(200);
    const system = llm.requests
      .at(-1)!
      .messages.map((m) => m.content)
      .join('\n');
    expect(system).toContain('Eine Leuchtturmwärterin.');
    expect(system).not.toContain('A lighthouse keeper.');
  });

  it('suggests three short replies, and counts toward the fair-use limit', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const { chat } = await twoExchanges(auth);
    llm.script = { mode: 'pieces', pieces: ['1. Tell me more\n', '- Really?\n', '"Let\'s go"\nAnd a fourth'] };
    const res = await call<{ suggestions: string[] }>(auth, 'POST', `/api/chat/${chat.id}/suggestions`);
    expect(res.body.suggestions).toEqual(['Tell me more', 'Really?', "Let's go"]);
  });
});
