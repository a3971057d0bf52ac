/** A chat's export (docs/chat.md "Export"): SillyTavern chat JSONL and plain text, streamed in pages. */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '@reverie/shared';
import { createBot, createChat, createMessage, createUser, openChatWithNewBot } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { parseSse, ScriptedLlm } from '../../../test/scripted-llm.js';
import { EXPORT_PAGE } from './chat-export.js';

let t: TestApp;
const llm = new ScriptedLlm();
beforeAll(async () => {
  t = await createTestApp({ llm });
});

const jsonLines = (body: string) =>
  body
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/**
 * A chat whose last reply has alternatives: "first" (09:01), a failed one without text (09:02),
 * "second" (09:03, shown) and "third" (09:04).
 */
async function chatWithSwipes() {
  const { auth, user } = await createUser(t.app, t.database.db);
  const bot = await createBot(t.database.db, { name: 'Mira', slug: `mira-${user.id.slice(0, 6)}` });
  const chat = await createChat(t.database.db, { userId: user.id, botId: bot.id });
  const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 9, minute));
  const asked = await createMessage(t.database.db, chat, { text: 'Tell me', createdAt: at(0) });
  const alternatives: [string, boolean][] = [
    ['first', false],
    ['', false],
    ['second', true],
    ['third', false],
  ];
  for (const [i, [text, selected]] of alternatives.entries())
    await createMessage(t.database.db, chat, {
      role: 'bot',
      text,
      state: text ? 'done' : 'failed',
      replyTo: asked.id,
      altIndex: i,
      selected,
      createdAt: at(i + 1),
    });
  return { auth, chat };
}

async function chatOf(count: number) {
  const { auth, user } = await createUser(t.app, t.database.db);
  const bot = await createBot(t.database.db, { name: 'Mira', slug: `mira-${user.id.slice(0, 6)}` });
  const chat = await createChat(t.database.db, { userId: user.id, botId: bot.id });
  await t.database.db.execute(sql`
    insert into messages (chat_id, user_id, role, text, created_at)
    select ${chat.id}, ${user.id}, case when i % 2 = 0 then 'user' else 'bot' end, 'line ' || i || E'\\n"quoted"',
      ${new Date(Date.UTC(2026, 0, 1)).toISOString()}::timestamptz + (i * interval '1 minute')
    from generate_series(0, ${count - 1}) as i`);
  // A platform notice is not part of the story: left out.
  await t.database.db.execute(
    sql`insert into messages (chat_id, user_id, role, kind, text) values (${chat.id}, ${user.id}, 'system', 9999, 'notice')`,
  );
  return { auth, chat, user };
}

describe('chat export', () => {
  it('writes SillyTavern chat JSONL: a header, then every shown message in order, across pages', async () => {
    const count = EXPORT_PAGE * 2 + 7;
    const { auth, chat } = await chatOf(count);
    const res = await t.app.inject({ url: `/api/chat/${chat.id}/export?format=jsonl`, headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/jsonl');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="mira-[a-z0-9]+-\d{4}-\d{2}-\d{2}\.jsonl"$/,
    );
    const lines = res.body
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ character_name: 'Mira', chat_metadata: {} });
    expect(typeof lines[0]!.user_name).toBe('string');
    expect(lines).toHaveLength(count + 1);
    expect(lines[1]).toEqual({
      name: lines[0]!.user_name,
      is_user: true,
      is_system: false,
      send_date: '2026-01-01T00:00:00.000Z',
      mes: 'line 0\n"quoted"',
      extra: {},
    });
    expect(lines[2]).toMatchObject({ name: 'Mira', is_user: false, mes: 'line 1\n"quoted"' });
    expect(lines.at(-1)).toMatchObject({ mes: `line ${count - 1}\n"quoted"` });
  });

  it("writes plain text, and is the owner's only", async () => {
    const { auth, chat } = await chatOf(3);
    const res = await t.app.inject({ url: `/api/chat/${chat.id}/export?format=txt`, headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toContain('Mira (2026-01-01 00:01 UTC):\nline 1\n"quoted"\n\n');
    expect(res.body).not.toContain('notice');
    const other = await createUser(t.app, t.database.db);
    expect((await t.app.inject({ url: `/api/chat/${chat.id}/export`, headers: other.auth })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/chat/${chat.id}/export?format=pdf`, headers: auth })).statusCode).toBe(400);
  });

  it("exports a branch's whole history: the shared messages up to the fork, its own edit of one, then its own", async () => {
    const { auth, chat } = await chatOf(6);
    const shown = await t.app.inject({ url: `/api/chat/history/${chat.id}`, headers: auth });
    const rows = (shown.json() as { results: { id: string; text: string }[] }).results;
    const fork = rows.find((m) => m.text.startsWith('line 3'))!;
    const edited = rows.find((m) => m.text.startsWith('line 1'))!;
    const made = await t.app.inject({
      method: 'POST',
      url: `/api/chat/${chat.id}/messages/${fork.id}/branch`,
      headers: auth,
    });
    expect(made.statusCode, made.body).toBe(201);
    const branch = made.json() as { id: string };
    const edit = await t.app.inject({
      method: 'PATCH',
      url: `/api/chat/${branch.id}/messages/${edited.id}`,
      headers: auth,
      payload: { text: 'line 1, told otherwise' },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const res = await t.app.inject({ url: `/api/chat/${branch.id}/export?format=jsonl`, headers: auth });
    expect(res.statusCode).toBe(200);
    const texts = res.body
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((line) => (JSON.parse(line) as { mes: string }).mes);
    expect(texts).toEqual(['line 0\n"quoted"', 'line 1, told otherwise', 'line 2\n"quoted"', 'line 3\n"quoted"']);
    // The root keeps its own text.
    const root = await t.app.inject({ url: `/api/chat/${chat.id}/export?format=txt`, headers: auth });
    expect(root.body).toContain('line 1\n"quoted"');
    expect(root.body).not.toContain('told otherwise');
  });

  it("names the user's lines with the chat's persona, as the story does", async () => {
    const { auth, chat, user } = await chatOf(2);
    const persona = await createBot(t.database.db, { name: 'Captain Rhea', kind: 'persona', authorId: user.id });
    await t.database.db.execute(sql`update chats set persona_id = ${persona.id} where id = ${chat.id}`);
    const res = await t.app.inject({ url: `/api/chat/${chat.id}/export?format=jsonl`, headers: auth });
    const lines = res.body
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ user_name: 'Captain Rhea', character_name: 'Mira' });
    expect(lines[1]).toMatchObject({ name: 'Captain Rhea', is_user: true });
    const text = await t.app.inject({ url: `/api/chat/${chat.id}/export?format=txt`, headers: auth });
    expect(text.body).toContain('Captain Rhea (2026-01-01 00:00 UTC):');
  });

  it("writes a reply's alternatives as SillyTavern's swipes, the shown one as mes, each at its own time", async () => {
    const { auth, chat } = await chatWithSwipes();
    const res = await t.app.inject({ url: `/api/chat/${chat.id}/export?format=jsonl`, headers: auth });
    const lines = jsonLines(res.body);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatchObject({ is_user: true, mes: 'Tell me' });
    expect(lines[1]).not.toHaveProperty('swipes');
    expect(lines[2]).toEqual({
      name: 'Mira',
      is_user: false,
      is_system: false,
      send_date: '2026-01-01T09:03:00.000Z',
      mes: 'second',
      swipes: ['first', 'second', 'third'],
      swipe_id: 1,
      swipe_info: [
        { send_date: '2026-01-01T09:01:00.000Z', extra: {} },
        { send_date: '2026-01-01T09:03:00.000Z', extra: {} },
        { send_date: '2026-01-01T09:04:00.000Z', extra: {} },
      ],
      extra: {},
    });
    // The text is the story as shown: the alternatives stay out.
    const text = await t.app.inject({ url: `/api/chat/${chat.id}/export?format=txt`, headers: auth });
    expect(text.body).toContain('Mira (2026-01-01 09:03 UTC):\nsecond\n\n');
    expect(text.body).not.toMatch(/first|third/);
  });

  it('dates a reply at its own time, when it was written, not at the message it answers', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const { chat } = await openChatWithNewBot(t.app, t.database.db, auth, { greeting: 'Hi' });
    llm.script = { mode: 'pieces', pieces: ['A', 'B', 'C'], delayMs: 150 };
    const sent = await t.app.inject({
      method: 'POST',
      url: `/api/chat/${chat.id}/messages`,
      headers: auth,
      payload: { client_id: randomUUID(), text: 'hey' },
    });
    const reply = parseSse(sent.body).at(-1)!.data as unknown as Message;
    expect(reply).toMatchObject({ state: 'done', text: 'ABC' });
    const lines = jsonLines(
      (await t.app.inject({ url: `/api/chat/${chat.id}/export?format=jsonl`, headers: auth })).body,
    );
    const [asked, answered] = lines.slice(-2) as { mes: string; send_date: string }[];
    expect(asked!.mes).toBe('hey');
    expect(answered!.mes).toBe('ABC');
    // Three pieces 150 ms apart: written at least 300 ms after the user's message.
    expect(Date.parse(answered!.send_date) - Date.parse(asked!.send_date)).toBeGreaterThanOrEqual(300);
    // The stream's final message and the history say the same time.
    expect(answered!.send_date).toBe(reply.created_at);
    const history = await t.app.inject({ url: `/api/chat/history/${chat.id}`, headers: auth });
    expect((history.json() as { results: Message[] }).results[0]).toMatchObject({
      id: reply.id,
      created_at: reply.created_at,
    });
  });
});
