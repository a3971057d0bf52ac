/** A chat's export (docs/chat.md "Export"): SillyTavern chat JSONL and plain text, streamed in pages. */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBot, createChat, createUser } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { EXPORT_PAGE } from './chat-export.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

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
});
