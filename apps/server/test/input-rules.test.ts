import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { BOT_LIMITS, type BotDetail } from '@reverie/shared';
import { bots, chats, messageReports, users } from '../src/db/schema.js';
import { withTextChunks } from '../src/modules/bots/card-png.js';
import { createBot, createChat, createMessage, createUser } from './factories.js';
import { createTestApp, type TestApp } from './helpers.js';
import { multipartBody } from './multipart.js';
import { parseSse, ScriptedLlm } from './scripted-llm.js';

/**
 * Issue 11, "no input gives a 500": NUL and control characters, deep JSON, malformed cursors
 * and oversized cards, route by route (PGlite and PostgreSQL: PostgreSQL refuses NUL in text).
 */
let t: TestApp;
const CONTROL_EN = 'This field cannot contain control or invisible characters';

beforeAll(async () => {
  t = await createTestApp({ llm: new ScriptedLlm(), env: { AUTH_RATE_LIMIT_IP_PER_MINUTE: '1000' } });
});

const card = (data: Record<string, unknown>) => ({
  spec: 'chara_card_v2',
  spec_version: '2.0',
  data: { name: 'Card', description: 'A card.', first_mes: 'Hi', ...data },
});

async function importJson(auth: Record<string, string>, body: unknown) {
  return t.app.inject({ method: 'POST', url: '/api/bot/import', headers: auth, payload: body as object });
}

async function importFile(auth: Record<string, string>, data: Buffer, filename = 'card.json') {
  const form = multipartBody({}, [{ field: 'file', filename, contentType: 'application/octet-stream', data }]);
  return t.app.inject({
    method: 'POST',
    url: '/api/bot/import',
    headers: { ...auth, ...form.headers },
    payload: form.payload,
  });
}

async function botCount(authorId: string) {
  return (await t.database.db.select({ id: bots.id }).from(bots).where(eq(bots.authorId, authorId))).length;
}

describe('single-line fields refuse control characters', () => {
  it('registering with NUL or other controls in the username or e-mail is a field error', async () => {
    for (const username of ['ann\u0000', 'ann\u0001', 'ann\u007f', 'ann\u0085', 'ann\u202e', 'ann\nbob', 'a\ud800']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: { username, email: `${randomUUID()}@example.test`, password: 'secret123', age_confirmed: true },
      });
      expect(res.statusCode, JSON.stringify(username)).toBe(400);
      expect(res.json().errors.username).toEqual([CONTROL_EN]);
    }
    const email = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { username: 'ann', email: 'ann\u0000@example.test', password: 'secret123', age_confirmed: true },
    });
    expect(email.statusCode).toBe(400);
    expect(email.json().errors.email).toBeDefined();
  });

  it('the field error is translated', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      headers: { 'accept-language': 'ch' },
      payload: { username: 'ann\u0000', email: 'a@example.test', password: 'secret123', age_confirmed: true },
    });
    expect(res.json().errors.username).toEqual(['此字段不能包含控制字符或不可见字符']);
  });

  it('a profile name with NUL is refused and nothing changes', async () => {
    const { user, auth } = await createUser(t.app, t.database.db);
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/profile/update',
      headers: auth,
      payload: { name: 'Eve\u0000' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.name).toEqual([CONTROL_EN]);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.name).toBe(user.name);
  });

  it('a character name or tag with NUL is refused, JSON or multipart', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/bot/create',
      headers: auth,
      payload: { name: 'Mia\u0000', age: 25, description: 'Kind.', tags: ['anime\u0001'] },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json().errors.name).toEqual([CONTROL_EN]);
    expect(json.json().errors.tags).toBeDefined();
    const form = multipartBody({ name: 'Mia\u0000', age: '25', description: 'Kind.' });
    const multipart = await t.app.inject({
      method: 'POST',
      url: '/api/bot/create',
      headers: { ...auth, ...form.headers },
      payload: form.payload,
    });
    expect(multipart.statusCode).toBe(400);
    expect(multipart.json().errors.name).toEqual([CONTROL_EN]);
  });

  it('query strings and path parameters with NUL are refused, never passed to a query', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    for (const url of ['/api/bots/available?c=%00', '/api/bot/%00', `/api/chat/history/%00`, '/api/blog?c=%00']) {
      const res = await t.app.inject({ method: 'GET', url, headers: auth });
      expect(res.statusCode, url).toBe(400);
    }
  });
});

describe('free text is cleaned: NUL and C0 controls removed, \\n \\r \\t kept', () => {
  it('a character description with NUL is saved without it (JSON and multipart)', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/bot/create',
      headers: auth,
      payload: { name: 'Mia', age: 25, description: 'Kind\u0000 and\u0007 calm.\nReally.\tYes' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<BotDetail>().description).toBe('Kind and calm.\nReally.\tYes');
    const form = multipartBody({ name: 'Mia', age: '25', description: 'Shy\u0000.', greeting: 'Hi\u0000!' });
    const multipart = await t.app.inject({
      method: 'POST',
      url: '/api/bot/create',
      headers: { ...auth, ...form.headers },
      payload: form.payload,
    });
    expect(multipart.statusCode, multipart.body).toBe(201);
    expect(multipart.json<BotDetail>()).toMatchObject({ description: 'Shy.', greeting: 'Hi!' });
  });

  it('memory, messages and report comments with NUL are saved without it', async () => {
    const { user, auth } = await createUser(t.app, t.database.db);
    const bot = await createBot(t.database.db);
    const chat = await createChat(t.database.db, { userId: user.id, botId: bot.id });
    const memory = await t.app.inject({
      method: 'PUT',
      url: `/api/chat/${chat.id}/memory`,
      headers: auth,
      payload: { memory: 'She likes\u0000 tea.\n' },
    });
    expect(memory.statusCode, memory.body).toBe(200);
    expect(memory.json().memory).toBe('She likes tea.');

    const sent = await t.app.inject({
      method: 'POST',
      url: `/api/chat/${chat.id}/messages`,
      headers: auth,
      payload: { client_id: randomUUID(), text: 'Hello\u0000 there\u001b' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const userMessage = parseSse(sent.body).find((e) => e.event === 'user_message');
    expect(userMessage?.data.text).toBe('Hello there');
    await t.app.replies.idle();

    const reply = await createMessage(t.database.db, chat, { role: 'bot', text: 'Hi' });
    const report = await t.app.inject({
      method: 'POST',
      url: `/api/chat/${chat.id}/messages/${reply.id}/report`,
      headers: auth,
      payload: { reason: 'other', comment: 'Bad\u0000 reply' },
    });
    expect(report.statusCode, report.body).toBeLessThan(300);
    const [row] = await t.database.db.select().from(messageReports).where(eq(messageReports.messageId, reply.id));
    expect(row!.comment).toBe('Bad reply');
  });

  it('a message of only control characters is empty, so refused', async () => {
    const { user, auth } = await createUser(t.app, t.database.db);
    const bot = await createBot(t.database.db);
    const chat = await createChat(t.database.db, { userId: user.id, botId: bot.id });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/chat/${chat.id}/messages`,
      headers: auth,
      payload: { client_id: randomUUID(), text: '\u0000\u0001' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.text).toEqual(['Fill in the field']);
  });
});

describe('deep JSON', () => {
  const deep = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

  it('a body nested deeper than 32 levels is refused before parsing, on every route', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    for (const url of ['/api/register', '/api/bot/import', '/api/analytics/events', '/api/profile/update']) {
      const res = await t.app.inject({
        method: url === '/api/profile/update' ? 'PATCH' : 'POST',
        url,
        headers: { ...auth, 'content-type': 'application/json' },
        payload: deep(5000),
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().code).toBe('json_too_deep');
    }
    const shallow = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      headers: { 'content-type': 'application/json' },
      payload: deep(32),
    });
    expect(shallow.statusCode).toBe(400);
    expect(shallow.json().code).toBe('validation_error');
  });

  it('a card file nested too deeply is refused, JSON or PNG', async () => {
    const { user, auth } = await createUser(t.app, t.database.db);
    const text = JSON.stringify(card({ extensions: { x: JSON.parse('['.repeat(60) + ']'.repeat(60)) } }));
    const json = await importFile(auth, Buffer.from(text));
    expect(json.statusCode).toBe(400);
    expect(json.json().code).toBe('json_too_deep');
    const png = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const res = await importFile(auth, withTextChunks(png, { chara: Buffer.from(text).toString('base64') }), 'c.png');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('json_too_deep');
    expect(await botCount(user.id)).toBe(0);
  });
});

describe('cursors', () => {
  const b64 = (text: string) => Buffer.from(text).toString('base64url');
  const malformed = [
    b64('[1.5]'),
    b64('[-1]'),
    b64('[1e308]'),
    b64('[null]'),
    b64('["1"]'),
    b64('[1,2]'),
    b64('{}'),
    b64('not json'),
    b64('["2024-02-31T00:00:00.000Z","6f1c2a52-2f43-4f0e-9c55-0e3f2b1d9a10"]'),
    b64('["2024-01-01T00:00:00.000Z","NOT A UUID"]'),
    b64('["2024-01-01T00:00:00.000Z","Not A Slug!"]'),
    b64('[9007199254740993]'),
    '%%%',
    '====',
    'a'.repeat(301),
  ];

  it('every cursor route answers 400 invalid_cursor to a malformed cursor', async () => {
    const { user, auth } = await createUser(t.app, t.database.db);
    const bot = await createBot(t.database.db);
    const [chat] = await t.database.db.insert(chats).values({ userId: user.id, botId: bot.id }).returning();
    for (const base of ['/api/bots/available?c=', '/api/blog?c=', `/api/chat/history/${chat!.id}?c=`]) {
      for (const cursor of malformed) {
        const res = await t.app.inject({ method: 'GET', url: base + encodeURIComponent(cursor), headers: auth });
        expect(res.statusCode, `${base}${cursor}`).toBe(400);
        expect(res.json().code, `${base}${cursor}`).toMatch(/^(invalid_cursor|validation_error)$/);
      }
      const bad = await t.app.inject({ method: 'GET', url: base + b64('[1.5]'), headers: auth });
      expect(bad.json()).toMatchObject({
        code: 'invalid_cursor',
        detail: 'This page link is no longer valid. Reload the list.',
      });
    }
  });

  it('the cursors the server makes still work', async () => {
    const { user, auth } = await createUser(t.app, t.database.db);
    const bot = await createBot(t.database.db);
    const chat = await createChat(t.database.db, { userId: user.id, botId: bot.id });
    for (let i = 0; i < 3; i++) await createMessage(t.database.db, chat, { text: `m${i}` });
    const first = await t.app.inject({ method: 'GET', url: `/api/chat/history/${chat.id}?size=2`, headers: auth });
    const next = first.json().next_param as string;
    expect(next).toBeTruthy();
    const second = await t.app.inject({
      method: 'GET',
      url: `/api/chat/history/${chat.id}?size=2&c=${next}`,
      headers: auth,
    });
    expect(second.statusCode).toBe(200);
    expect(second.json().results).toHaveLength(1);
    const page = await t.app.inject({ method: 'GET', url: '/api/bots/available?size=1' });
    const again = await t.app.inject({ method: 'GET', url: `/api/bots/available?size=1&c=${page.json().next_param}` });
    expect(again.statusCode).toBe(200);
  });
});

describe('imported cards obey the create limits', () => {
  it('a card with a 7 MB description is refused and nothing is stored', async () => {
    const { user, auth } = await createUser(t.app, t.database.db);
    const big = card({ description: 'x'.repeat(7 * 1024 * 1024) });
    const asJson = await importJson(auth, big);
    expect(asJson.statusCode).toBeGreaterThanOrEqual(400);
    expect(asJson.statusCode).toBeLessThan(500);
    const asFile = await importFile(auth, Buffer.from(JSON.stringify(big)));
    expect(asFile.statusCode).toBe(413);
    expect(await botCount(user.id)).toBe(0);
  });

  it('a field over its create limit is a field error, never cut', async () => {
    const { user, auth } = await createUser(t.app, t.database.db);
    const cases: [Record<string, unknown>, string][] = [
      [{ description: 'x'.repeat(BOT_LIMITS.description + 1) }, 'description'],
      [{ name: 'x'.repeat(BOT_LIMITS.name + 1) }, 'name'],
      [{ first_mes: 'x'.repeat(BOT_LIMITS.greeting + 1) }, 'first_mes'],
      [
        { alternate_greetings: Array.from({ length: BOT_LIMITS.alternateGreetings + 1 }, () => 'Hi') },
        'alternate_greetings',
      ],
      [{ alternate_greetings: ['Hi', 'x'.repeat(BOT_LIMITS.greeting + 1)] }, 'alternate_greetings.1'],
      [{ tags: Array.from({ length: BOT_LIMITS.tags + 1 }, (_, i) => `tag${i}`) }, 'tags'],
      [
        {
          character_book: {
            entries: Array.from({ length: BOT_LIMITS.lorebookEntries + 1 }, () => ({ keys: ['k'], content: 'c' })),
          },
        },
        'character_book.entries',
      ],
      [
        { character_book: { entries: [{ keys: ['k'], content: 'x'.repeat(BOT_LIMITS.lorebookEntry + 1) }] } },
        'character_book.entries.0.content',
      ],
      [{ extensions: { blob: 'x'.repeat(BOT_LIMITS.extraJsonBytes) } }, 'extensions'],
      [{ name: 'Mia\u0000' }, 'name'],
      [{ tags: ['ok', 'bad\u0001'] }, 'tags.1'],
    ];
    for (const [data, field] of cases) {
      const res = await importJson(auth, card(data));
      expect(res.statusCode, field).toBe(400);
      expect(Object.keys(res.json().errors ?? {}), field).toEqual([field]);
    }
    expect(await botCount(user.id)).toBe(0);
  });

  it('free text of a card (fields, greetings, lorebook, extensions) is cleaned of NUL, JSON or PNG', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const dirty = card({
      description: 'Kind\u0000.',
      alternate_greetings: ['Hey\u0000'],
      character_book: {
        entries: [{ keys: ['k\u0000ey'], content: 'Lore\u0000', extensions: { 'x\u0000': '\u0000y' } }],
      },
      extensions: { other: { note: 'a\u0000b', __proto__: { polluted: true } } },
      unknown_field: 'v\u0000',
    });
    const res = await importJson(auth, dirty);
    expect(res.statusCode, res.body).toBe(201);
    const bot = res.json<BotDetail>();
    expect(bot.description).toBe('Kind.');
    expect(bot.alternate_greetings).toEqual(['Hey']);
    const exported = await t.app.inject({ method: 'GET', url: `/api/bot/${bot.slug}/card.json`, headers: auth });
    expect(exported.body).not.toContain('\\u0000');
    expect(exported.json().data.character_book.entries[0]).toMatchObject({ keys: ['key'], content: 'Lore' });
    expect(exported.json().data.unknown_field).toBe('v');

    const png = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const file = withTextChunks(png, { chara: Buffer.from(JSON.stringify(dirty)).toString('base64') });
    const fromPng = await importFile(auth, file, 'card.png');
    expect(fromPng.statusCode, fromPng.body).toBe(201);
    expect(fromPng.json<BotDetail>().description).toBe('Kind.');
    const [row] = await t.database.db
      .select()
      .from(bots)
      .where(and(eq(bots.slug, fromPng.json<BotDetail>().slug)));
    expect(JSON.stringify(row)).not.toContain('\\u0000');
  });
});
