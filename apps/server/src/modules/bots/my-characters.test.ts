import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BotDetail, BotList, BotMine, Chat, CreatorPage, Message } from '@reverie/shared';
import { createBot, createMessage, createUser } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { multipartBody } from '../../../test/multipart.js';

// My characters (issue 30): the author's list with states and counts, delete (others keep
// their chats), duplicate, a new photo, the full edit; on PGlite and PostgreSQL (TEST_DB).

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { CHARACTER_CREATIONS_PER_HOUR: '6' } });
});

const png = (color = '#c0aede') =>
  sharp({ create: { width: 64, height: 64, channels: 3, background: color } })
    .png()
    .toBuffer();

async function mine(auth: { authorization: string }, kind?: string): Promise<BotMine[]> {
  const res = await t.app.inject({ url: `/api/bots/mine${kind ? `?kind=${kind}` : ''}`, headers: auth });
  expect(res.statusCode).toBe(200);
  return res.json<{ results: BotMine[] }>().results;
}

async function startChat(auth: { authorization: string }, botID: string): Promise<Chat> {
  const res = await t.app.inject({ method: 'POST', url: '/api/chat/create', headers: auth, payload: { botID } });
  expect(res.statusCode).toBe(201);
  return res.json<Chat>();
}

describe('My characters', () => {
  it('lists the states, the chats and the people who chat with a public character', async () => {
    const author = await createUser(t.app, t.database.db);
    const fans = [await createUser(t.app, t.database.db), await createUser(t.app, t.database.db)];
    const listed = await createBot(t.database.db, { authorId: author.user.id, name: 'Listed One' });
    const rejected = await createBot(t.database.db, {
      authorId: author.user.id,
      reviewState: 'rejected',
      reviewReason: 'The photo is blurry',
    });
    const waiting = await createBot(t.database.db, { authorId: author.user.id, reviewState: 'pending' });
    const persona = await createBot(t.database.db, {
      authorId: author.user.id,
      kind: 'persona',
      visibility: 'private',
    });
    await createBot(t.database.db, { authorId: fans[0]!.user.id });
    await startChat(author.auth, listed.id);
    await startChat(fans[0]!.auth, listed.id);
    await startChat(fans[0]!.auth, listed.id);
    await startChat(fans[1]!.auth, listed.id);

    const all = await mine(author.auth);
    expect(all.map((b) => b.id).sort()).toEqual([listed.id, rejected.id, waiting.id, persona.id].sort());
    const byId = new Map(all.map((b) => [b.id, b]));
    expect(byId.get(listed.id)).toMatchObject({ chats_count: 4, people_count: 2, review_state: 'approved' });
    expect(byId.get(rejected.id)).toMatchObject({ review_state: 'rejected', review_reason: 'The photo is blurry' });
    expect(byId.get(waiting.id)).toMatchObject({ review_state: 'pending', chats_count: 0, people_count: 0 });
    expect((await mine(author.auth, 'persona')).map((b) => b.id)).toEqual([persona.id]);
    expect((await t.app.inject({ url: '/api/bots/mine' })).statusCode).toBe(401);
  });

  it('a deleted public character leaves every list; other people keep their chats and history', async () => {
    const author = await createUser(t.app, t.database.db);
    const other = await createUser(t.app, t.database.db);
    const admin = await createUser(t.app, t.database.db, { role: 'admin' });
    const bot = await createBot(t.database.db, { authorId: author.user.id, name: 'Leaving Soon' });
    const chat = await startChat(other.auth, bot.id);
    await createMessage(t.database.db, { id: chat.id, userId: other.user.id }, { text: 'Remember the lighthouse?' });
    const before = await t.app.inject({ url: `/api/chat/history/${chat.id}`, headers: other.auth });
    expect(before.statusCode).toBe(200);

    // Nobody but the author deletes it (404, as for anything of another's).
    const stranger = await t.app.inject({ method: 'DELETE', url: `/api/bot/${bot.slug}`, headers: other.auth });
    expect(stranger.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/bot/${bot.slug}` })).statusCode).toBe(401);

    const res = await t.app.inject({ method: 'DELETE', url: `/api/bot/${bot.slug}`, headers: author.auth });
    expect(res.statusCode).toBe(204);
    const again = await t.app.inject({ method: 'DELETE', url: `/api/bot/${bot.slug}`, headers: author.auth });
    expect(again.statusCode).toBe(404);
    expect(again.json<{ code: string }>().code).toBe('not_found');

    // Gone from the page, the catalogue and the author's list…
    for (const headers of [{}, other.auth, author.auth]) {
      expect((await t.app.inject({ url: `/api/bot/${bot.slug}`, headers })).statusCode).toBe(404);
      const list = await t.app.inject({ url: '/api/bots/available?size=100', headers });
      expect(list.json<BotList>().results.map((b) => b.id)).not.toContain(bot.id);
    }
    expect((await mine(author.auth)).map((b) => b.id)).not.toContain(bot.id);
    // …and no new chat starts with it.
    const fresh = await t.app.inject({
      method: 'POST',
      url: '/api/chat/create',
      headers: other.auth,
      payload: { botID: bot.id },
    });
    expect(fresh.statusCode).toBe(404);

    // The other user's chat and its whole history stay.
    const kept = await t.app.inject({ url: `/api/chat/${chat.id}`, headers: other.auth });
    expect(kept.statusCode).toBe(200);
    expect(kept.json<Chat>().bot.name).toBe('Leaving Soon');
    const history = await t.app.inject({ url: `/api/chat/history/${chat.id}`, headers: other.auth });
    expect(history.statusCode).toBe(200);
    expect(history.json<{ results: Message[] }>().results.map((m) => m.text)).toEqual(
      before.json<{ results: Message[] }>().results.map((m) => m.text),
    );
    expect(history.json<{ results: Message[] }>().results.map((m) => m.text)).toContain('Remember the lighthouse?');
    const chats = await t.app.inject({ url: '/api/chats/available', headers: other.auth });
    expect(JSON.stringify(chats.json())).toContain(chat.id);
    // The admin console still opens it (reports and takedowns name it).
    const console = await t.app.inject({ url: `/api/admin/characters/${bot.id}`, headers: admin.auth });
    expect(console.statusCode).toBe(200);
  });

  it('a deleted persona leaves the chats that used it', async () => {
    const author = await createUser(t.app, t.database.db);
    const bot = await createBot(t.database.db);
    const persona = await createBot(t.database.db, {
      authorId: author.user.id,
      kind: 'persona',
      visibility: 'private',
    });
    const chat = await startChat(author.auth, bot.id);
    const set = await t.app.inject({
      method: 'PATCH',
      url: `/api/chat/${chat.id}`,
      headers: author.auth,
      payload: { persona_id: persona.id },
    });
    expect(set.statusCode).toBe(200);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/bot/${persona.slug}`, headers: author.auth });
    expect(res.statusCode).toBe(204);
    const after = await t.app.inject({ url: `/api/chat/${chat.id}`, headers: author.auth });
    expect(after.json<Chat & { persona_id: string | null }>().persona_id ?? null).toBeNull();
  });

  it('duplicates the author’s own character as a private copy; 404 for anyone else; rate limited', async () => {
    const author = await createUser(t.app, t.database.db);
    const other = await createUser(t.app, t.database.db);
    const bot = await createBot(t.database.db, {
      authorId: author.user.id,
      exampleMessages: '<START>\n{{char}}: Hi.',
      voice: 'en-us+m3',
    });
    const res = await t.app.inject({ method: 'POST', url: `/api/bot/${bot.slug}/duplicate`, headers: author.auth });
    expect(res.statusCode).toBe(201);
    const copy = res.json<BotDetail>();
    expect(copy.id).not.toBe(bot.id);
    expect(copy.slug).not.toBe(bot.slug);
    expect(copy).toMatchObject({
      name: bot.name,
      visibility: 'private',
      voice: 'en-us+m3',
      example_messages: '<START>\n{{char}}: Hi.',
    });
    expect((await mine(author.auth)).map((b) => b.id)).toContain(copy.id);
    const stranger = await t.app.inject({ method: 'POST', url: `/api/bot/${bot.slug}/duplicate`, headers: other.auth });
    expect(stranger.statusCode).toBe(404);
    // CHARACTER_CREATIONS_PER_HOUR=6 for this app: the seventh new character in the hour waits.
    const codes: number[] = [];
    for (let i = 0; i < 6; i++)
      codes.push(
        (await t.app.inject({ method: 'POST', url: `/api/bot/${bot.slug}/duplicate`, headers: author.auth }))
          .statusCode,
      );
    expect(codes.slice(0, 5)).toEqual([201, 201, 201, 201, 201]);
    expect(codes[5]).toBe(429);
  });

  it('replaces the photo through the picture check; 404 for anyone else; 415 without a form', async () => {
    const author = await createUser(t.app, t.database.db);
    const other = await createUser(t.app, t.database.db);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/bot/create',
      headers: author.auth,
      payload: { name: 'Mira', age: 27, description: 'A lighthouse keeper.', greeting: 'The lamp is lit.' },
    });
    expect(created.statusCode).toBe(201);
    const bot = created.json<BotDetail>();
    const form = multipartBody({}, [
      { field: 'photo', filename: 'me.png', contentType: 'image/png', data: await png() },
    ]);
    const denied = await t.app.inject({
      method: 'PUT',
      url: `/api/bot/${bot.slug}/photo`,
      headers: { ...other.auth, ...form.headers },
      payload: form.payload,
    });
    expect(denied.statusCode).toBe(404);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/bot/${bot.slug}/photo`,
      headers: { ...author.auth, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode).toBe(200);
    const saved = res.json<BotDetail>();
    expect(saved.avatar_url).not.toBe(bot.avatar_url);
    expect(saved.avatar_url).toMatch(/avatar-[0-9a-f]{8}\.webp/);
    const json = await t.app.inject({
      method: 'PUT',
      url: `/api/bot/${bot.slug}/photo`,
      headers: author.auth,
      payload: {},
    });
    expect(json.statusCode).toBe(415);
    const empty = multipartBody({ other: 'x' });
    const missing = await t.app.inject({
      method: 'PUT',
      url: `/api/bot/${bot.slug}/photo`,
      headers: { ...author.auth, ...empty.headers },
      payload: empty.payload,
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ errors: Record<string, string[]> }>().errors.photo).toBeDefined();
  });

  it('edits every field of the form: traits, style, example messages, voice', async () => {
    const author = await createUser(t.app, t.database.db);
    const bot = await createBot(t.database.db, { authorId: author.user.id, visibility: 'private', tags: ['anime'] });
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/bot/${bot.slug}`,
      headers: author.auth,
      payload: {
        occupation: ['doctor'],
        personality: ['shy', 'curious'],
        tags: ['realistic'],
        example_messages: '<START>\n{{char}}: Breathe in.',
        voice: 'en-gb+f3',
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<BotDetail>()).toMatchObject({
      occupation: ['doctor'],
      personality: ['shy', 'curious'],
      tags: ['realistic'],
      example_messages: '<START>\n{{char}}: Breathe in.',
      voice: 'en-gb+f3',
    });
    const bad = await t.app.inject({
      method: 'PATCH',
      url: `/api/bot/${bot.slug}`,
      headers: author.auth,
      payload: { voice: 'elevenlabs-expensive' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ errors: Record<string, string[]> }>().errors.voice).toBeDefined();
  });

  it("a creator's page lists their public characters; hidden when they ask, 404 for a non-creator", async () => {
    const creator = await createUser(t.app, t.database.db, { name: 'Mira Creates' });
    const visitor = await createUser(t.app, t.database.db);
    const shown = await createBot(t.database.db, { authorId: creator.user.id, name: 'Shown One' });
    await createBot(t.database.db, { authorId: creator.user.id, name: 'Private One', visibility: 'private' });
    await createBot(t.database.db, { authorId: creator.user.id, name: 'Pending One', reviewState: 'pending' });
    const gone = await createBot(t.database.db, { authorId: creator.user.id, name: 'Deleted One' });
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/bot/${gone.slug}`, headers: creator.auth })).statusCode,
    ).toBe(204);
    const page = async (headers: Record<string, string> = {}) =>
      t.app.inject({ url: `/api/creators/${creator.user.id}`, headers });

    const res = await page();
    expect(res.statusCode).toBe(200);
    expect(res.json<CreatorPage>()).toMatchObject({ id: creator.user.id, name: 'Mira Creates' });
    expect(res.json<CreatorPage>().results.map((b) => b.id)).toEqual([shown.id]);

    const hide = await t.app.inject({
      method: 'PATCH',
      url: '/api/profile/preferences',
      headers: creator.auth,
      payload: { creator_page_hidden: true },
    });
    expect(hide.statusCode).toBe(200);
    expect(hide.json<{ creator_page_hidden: boolean }>().creator_page_hidden).toBe(true);
    for (const headers of [{}, visitor.auth, creator.auth]) {
      const hidden = await page(headers);
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json<{ code: string }>().code).toBe('not_found');
    }
    await t.app.inject({
      method: 'PATCH',
      url: '/api/profile/preferences',
      headers: creator.auth,
      payload: { creator_page_hidden: false },
    });
    expect((await page()).statusCode).toBe(200);

    // Someone with no public character has no page; a malformed id is 400.
    expect((await t.app.inject({ url: `/api/creators/${visitor.user.id}` })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/creators/not-a-uuid' })).statusCode).toBe(400);
  });
});
