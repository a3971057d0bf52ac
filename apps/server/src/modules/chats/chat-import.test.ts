/** A chat's import (docs/chat.md "Import"): SillyTavern chat JSONL, streamed from disk in batches. */
import v8 from 'node:v8';
import vm from 'node:vm';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBot, createChat, createUser } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { multipartBody } from '../../../test/multipart.js';

// The collector, to measure the live heap (not the garbage not yet collected).
v8.setFlagsFromString('--expose-gc');
// Unused code is not dropped by the collections below (that would hide a growth).
v8.setFlagsFromString('--no-flush-bytecode');
const gc = vm.runInNewContext('gc') as () => void;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

async function owner() {
  const { auth, user } = await createUser(t.app, t.database.db);
  const bot = await createBot(t.database.db, { name: 'Mira', slug: `mira-${user.id.slice(0, 8)}` });
  return { auth, user, bot };
}

function upload(auth: Record<string, string>, fields: Record<string, string>, data: Buffer) {
  const form = multipartBody(fields, [
    { field: 'file', filename: 'chat.jsonl', contentType: 'application/jsonl', data },
  ]);
  return t.app.inject({
    method: 'POST',
    url: '/api/chat/import',
    headers: { ...auth, ...form.headers },
    payload: form.payload,
  });
}

const header = (character = 'Mira') =>
  JSON.stringify({
    user_name: 'Ann',
    character_name: character,
    create_date: '2026-01-01T00:00:00.000Z',
    chat_metadata: {},
  });
const line = (i: number, text = `line ${i}`) =>
  JSON.stringify({
    name: i % 2 ? 'Mira' : 'Ann',
    is_user: i % 2 === 0,
    is_system: false,
    send_date: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    mes: text,
    swipes: [text, 'another'],
    swipe_id: 0,
    extra: {},
  });

async function chatCount(userId: string): Promise<number> {
  const rows = await t.database.db.execute<{ n: number }>(
    sql`select count(*)::int as n from chats where user_id = ${userId}`,
  );
  return Number(
    (rows as unknown as { rows: { n: number }[] }).rows?.[0]?.n ?? (rows as unknown as { n: number }[])[0]?.n,
  );
}

async function historyTexts(auth: Record<string, string>, chatId: string): Promise<{ role: string; text: string }[]> {
  const out: { role: string; text: string }[] = [];
  const exported = await t.app.inject({ url: `/api/chat/${chatId}/export?format=jsonl`, headers: auth });
  for (const l of exported.body.trimEnd().split('\n').slice(1)) {
    const m = JSON.parse(l) as { is_user: boolean; mes: string };
    out.push({ role: m.is_user ? 'user' : 'bot', text: m.mes });
  }
  return out;
}

describe('chat import', () => {
  it('round trip: an exported chat imported again has the same texts and roles, literally', async () => {
    const { auth, user, bot } = await owner();
    const chat = await createChat(t.database.db, { userId: user.id, botId: bot.id });
    await t.database.db.execute(sql`
      insert into messages (chat_id, user_id, role, text)
      select ${chat.id}, ${user.id}, case when i % 2 = 0 then 'user' else 'bot' end, 'line ' || i || E' <b>&amp;</b>\\n"quoted" {{user}}'
      from generate_series(0, 1206) as i`);
    const exported = await t.app.inject({ url: `/api/chat/${chat.id}/export?format=jsonl`, headers: auth });
    const res = await upload(auth, { bot_id: bot.id }, Buffer.from(exported.body));
    expect(res.statusCode).toBe(201);
    const body = res.json<{
      chat: { id: string; bot: { id: string }; updated_at: string; unread: number };
      imported: number;
      skipped: number;
    }>();
    expect(body).toMatchObject({ imported: 1207, skipped: 0 });
    expect(body.chat.id).not.toBe(chat.id);
    expect(body.chat.unread).toBe(0);
    expect(await historyTexts(auth, body.chat.id)).toEqual(await historyTexts(auth, chat.id));
    expect((await historyTexts(auth, body.chat.id))[3]).toEqual({
      role: 'bot',
      text: 'line 3 <b>&amp;</b>\n"quoted" {{user}}',
    });
  });

  it("keeps a reply's swipes as its alternatives, the shown one shown; exported again the same", async () => {
    const { auth, bot } = await owner();
    const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 9, minute)).toISOString();
    const reply = {
      name: 'Mira',
      is_user: false,
      is_system: false,
      send_date: at(3),
      mes: 'second',
      swipes: ['first', 'second', 'third'],
      swipe_id: 1,
      swipe_info: [
        { send_date: at(1), extra: {} },
        { send_date: at(3), extra: {} },
        { send_date: at(4), extra: {} },
      ],
      extra: {},
    };
    const file = [
      header(),
      // A greeting's swipes answer no message of the user: only the shown one is kept.
      JSON.stringify({
        name: 'Mira',
        is_user: false,
        send_date: at(0),
        mes: 'Hi',
        swipes: ['Hi', 'Hello'],
        swipe_id: 0,
      }),
      JSON.stringify({ name: 'Ann', is_user: true, is_system: false, send_date: at(0), mes: 'Tell me', extra: {} }),
      JSON.stringify(reply),
    ].join('\n');
    const res = await upload(auth, { bot_id: bot.id }, Buffer.from(file));
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json<{ chat: { id: string; updated_at: string }; imported: number }>();
    expect(body.imported).toBe(3);
    expect(body.chat.updated_at).toBe(at(4));
    const exported = await t.app.inject({ url: `/api/chat/${body.chat.id}/export?format=jsonl`, headers: auth });
    const lines = exported.body
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[1]).toMatchObject({ mes: 'Hi' });
    expect(lines[1]).not.toHaveProperty('swipes');
    expect(lines[3]).toEqual(reply);
    // The alternatives are the chat's: another one can be shown.
    const history = await t.app.inject({ url: `/api/chat/history/${body.chat.id}`, headers: auth });
    const shown = (history.json() as { results: { id: string; text: string; alt_index: number; alt_count: number }[] })
      .results[0]!;
    expect(shown).toMatchObject({ text: 'second', alt_index: 1, alt_count: 3 });
    const select = await t.app.inject({
      method: 'POST',
      url: `/api/chat/${body.chat.id}/messages/${shown.id}/select`,
      headers: auth,
      payload: { index: 2 },
    });
    expect(select.json()).toMatchObject({ text: 'third', alt_index: 2 });
  });

  it('keeps dates, skips system lines, sets the chat activity time, refuses another character unless forced', async () => {
    const { auth, bot } = await owner();
    const file = [
      header('Somebody Else'),
      line(0),
      JSON.stringify({ name: 'System', is_user: false, is_system: true, send_date: 'x', mes: 'a notice' }),
      line(1),
      JSON.stringify({ name: 'Mira', is_user: false, send_date: 'November 27, 2026 9:40pm', mes: 'old date' }),
    ].join('\r\n');
    const refused = await upload(auth, { slug: bot.slug }, Buffer.from(file));
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'import_character_mismatch' });
    const res = await upload(auth, { slug: bot.slug, force: 'true' }, Buffer.from(file));
    expect(res.statusCode).toBe(201);
    const body = res.json<{ chat: { id: string; updated_at: string }; imported: number; skipped: number }>();
    expect(body).toMatchObject({ imported: 3, skipped: 1 });
    expect(new Date(body.chat.updated_at).getUTCFullYear()).toBe(2026);
    expect(new Date(body.chat.updated_at).getUTCMonth()).toBe(10);
    expect((await historyTexts(auth, body.chat.id)).map((m) => m.text)).toEqual(['line 0', 'line 1', 'old date']);
  });

  it('a bad line is a 422 with its number, and no chat is left', async () => {
    const { auth, user, bot } = await owner();
    const lines = [header(), ...Array.from({ length: 700 }, (_, i) => line(i))];
    lines.splice(650, 0, '{"mes": 12}');
    const res = await upload(auth, { bot_id: bot.id }, Buffer.from(lines.join('\n')));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'import_bad_line', errors: { line: ['651'] } });
    const notJson = await upload(auth, { bot_id: bot.id }, Buffer.from(`${header()}\n${line(0)}\nnot json`));
    expect(notJson.json()).toMatchObject({ code: 'import_bad_line', errors: { line: ['3'] } });
    const empty = await upload(auth, { bot_id: bot.id }, Buffer.from(header()));
    expect(empty.json()).toMatchObject({ code: 'import_empty' });
    expect(await chatCount(user.id)).toBe(0);
  });

  it('keeps odd text storable: NUL and other controls dropped, lone surrogates replaced, never a 500', async () => {
    const { auth, bot } = await owner();
    const odd = [
      JSON.stringify({ is_user: true, mes: 'nul\u0000here \u0007bell\ttab' }).replace('\\u0000', '\\u0000'),
      '{"is_user": false, "mes": "lone \\ud800 surrogate"}',
      JSON.stringify({ is_user: true, mes: 'fine', send_date: 1e300, __proto__: { polluted: true } }),
      '{"is_user": false, "mes": "deep", "extra": ' + '['.repeat(5000) + ']'.repeat(5000) + '}',
    ];
    const res = await upload(auth, { bot_id: bot.id }, Buffer.from([header(), ...odd].join('\n')));
    expect(res.statusCode, res.body).toBe(201);
    const { chat } = res.json() as { chat: { id: string } };
    expect((await historyTexts(auth, chat.id)).map((m) => m.text)).toEqual([
      'nulhere bell\ttab',
      'lone \ufffd surrogate',
      'fine',
      'deep',
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("another user's private character or an unknown one is a 404; no file is a 400", async () => {
    const { auth } = await owner();
    const other = await owner();
    await t.database.db.execute(
      sql`update bots set visibility = 'private', author_id = ${other.user.id} where id = ${other.bot.id}`,
    );
    const file = Buffer.from(`${header()}\n${line(0)}`);
    expect((await upload(auth, { bot_id: other.bot.id }, file)).statusCode).toBe(404);
    expect((await upload(auth, { slug: 'no-such-character' }, file)).statusCode).toBe(404);
    expect((await upload(auth, { bot_id: other.bot.id }, Buffer.alloc(0))).statusCode).toBe(400);
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/chat/import',
      headers: auth,
      payload: { bot_id: 'x' },
    });
    expect(json.statusCode).toBe(415);
  });

  it('imports a 10 000-line file of over 5 MB with the heap staying flat', async () => {
    const { auth, bot } = await owner();
    const filler = 'x'.repeat(520);
    const data = Buffer.from(
      [header(), ...Array.from({ length: 10_000 }, (_, i) => line(i, `${i} ${filler}`))].join('\n'),
    );
    expect(data.length).toBeGreaterThan(5 * 1024 * 1024);
    // The live heap (garbage collected before each sample), sampled while the import runs.
    const live = () => {
      gc();
      return v8.getHeapStatistics().used_heap_size;
    };
    // A first import of the file's first 1 000 lines: what the first import allocates or frees
    // once (code, caches) is out of the measure (the whole file twice took a minute on PGlite).
    const warmUp = Buffer.from(
      [header(), ...Array.from({ length: 1_000 }, (_, i) => line(i, `${i} ${filler}`))].join('\n'),
    );
    expect((await upload(auth, { bot_id: bot.id }, warmUp)).statusCode).toBe(201);
    for (let i = 0; i < 4; i += 1) gc();
    const before = live();
    let peak = before;
    let samples = 0;
    // A full collection per sample stops the import while it runs: in the whole test run (one
    // worker for every file, a large heap) it takes long, so the samples are a second apart,
    // the first one early.
    const sample = () => {
      samples += 1;
      peak = Math.max(peak, live());
    };
    const first = setTimeout(sample, 100);
    const sampler = setInterval(sample, 1000);
    const res = await upload(auth, { bot_id: bot.id }, data);
    clearTimeout(first);
    clearInterval(sampler);
    peak = Math.max(peak, live());
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ imported: 10_000 });
    expect(samples).toBeGreaterThan(0);
    // Flat: about 0.1 MB measured on PGlite, 3 to 6 MB on PostgreSQL; keeping
    // every row of the file in memory adds about 7.5 MB more.
    expect(peak - before).toBeLessThan(10 * 1024 * 1024);
  }, 900_000);
});
