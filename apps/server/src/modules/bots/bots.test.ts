import zlib from 'node:zlib';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { getEdition, type Bot, type BotDetail, type BotList } from '@reverie/shared';
import { botPictures } from '../../db/schema.js';
import { createBot, createUser } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { multipartBody } from '../../../test/multipart.js';
import { seedDatabase } from '../../seed.js';
import { createMediaStorage } from '../../providers/storage/index.js';
import { detectMinor } from '../../providers/moderation/rules-moderation.js';
import { OFFICIAL_CHARACTERS } from './official-characters.js';
import { readTextChunks, writePng } from './card-png.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

async function listAll(headers: Record<string, string> = {}, tags = '', between?: () => Promise<void>): Promise<Bot[]> {
  const seen: Bot[] = [];
  let cursor: string | null = null;
  let first = true;
  do {
    const query: URLSearchParams = new URLSearchParams({
      size: String(first ? 30 : 15),
      ...(tags ? { tags } : {}),
      ...(cursor ? { c: cursor } : {}),
    });
    const res: Awaited<ReturnType<typeof t.app.inject>> = await t.app.inject({
      method: 'GET',
      url: `/api/bots/available?${query}`,
      headers,
    });
    expect(res.statusCode).toBe(200);
    const body: BotList = res.json();
    expect(body.results.length).toBeLessThanOrEqual(first ? 30 : 15);
    seen.push(...body.results);
    cursor = body.next_param;
    first = false;
    if (between) await between();
  } while (cursor);
  return seen;
}

async function png(width = 64, height = 64): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#c0aede' } })
    .png()
    .toBuffer();
}

describe('catalogue', () => {
  const created: string[] = [];
  beforeAll(async () => {
    const base = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 70; i++) {
      const bot = await createBot(t.database.db, {
        isOfficial: i % 2 === 0,
        tags: [i % 3 === 0 ? 'realistic' : 'anime'],
        // Some share a timestamp so the id breaks ties.
        createdAt: new Date(base - Math.floor(i / 2) * 1000),
      });
      created.push(bot.id);
    }
  });

  it('pages 30 then 15 with no duplicate and no missing character', async () => {
    const seen = await listAll();
    const ids = seen.map((b) => b.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of created) expect(ids).toContain(id);
  });

  it('keeps pages consistent while characters are inserted between page loads', async () => {
    const before = new Set((await listAll()).map((b) => b.id));
    const seen = await listAll({}, '', async () => {
      await createBot(t.database.db);
    });
    const ids = seen.map((b) => b.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of before) expect(ids).toContain(id);
  });

  it('filters official, custom, anime and realistic', async () => {
    const official = await listAll({}, 'official');
    expect(official.length).toBeGreaterThan(0);
    expect(official.every((b) => b.is_official)).toBe(true);
    const custom = await listAll({}, 'custom');
    expect(custom.length).toBeGreaterThan(0);
    expect(custom.every((b) => !b.is_official)).toBe(true);
    const anime = await listAll({}, 'anime');
    expect(anime.length).toBeGreaterThan(0);
    expect(anime.every((b) => b.tags.includes('anime'))).toBe(true);
    const realistic = await listAll({}, 'realistic');
    expect(realistic.length).toBeGreaterThan(0);
    expect(realistic.every((b) => b.tags.includes('realistic'))).toBe(true);
    const officialAnime = await listAll({}, 'official,anime');
    expect(officialAnime.every((b) => b.is_official && b.tags.includes('anime'))).toBe(true);
    const all = await listAll();
    expect(officialAnime.length).toBe(all.filter((b) => b.is_official && b.tags.includes('anime')).length);
  });

  it('pages exactly through characters created within the same millisecond', async () => {
    const { sql } = await import('drizzle-orm');
    const ids: string[] = [];
    for (const us of ['000300', '000200', '000100']) {
      const bot = await createBot(t.database.db, { tags: ['realistic'] });
      await t.database.db.execute(
        sql`update bots set created_at = ${`2030-01-01T00:00:00.${us}Z`}::timestamptz where id = ${bot.id}`,
      );
      ids.push(bot.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 3; i++) {
      const res: Awaited<ReturnType<typeof t.app.inject>> = await t.app.inject({
        method: 'GET',
        url: `/api/bots/available?size=1${cursor ? `&c=${cursor}` : ''}`,
      });
      const body: BotList = res.json();
      seen.push(body.results[0]!.id);
      cursor = body.next_param;
    }
    expect(seen).toEqual(ids);
    // They would otherwise stay on top of every later list.
    await t.database.db.execute(sql`delete from bots where created_at >= '2030-01-01'::timestamptz`);
  });

  it('searches names and tags with q, server side, keyset pages kept', async () => {
    const owner = await createUser(t.app, t.database.db);
    const base = Date.UTC(2025, 5, 1);
    const made = [];
    for (let i = 0; i < 5; i++) {
      made.push(
        await createBot(t.database.db, {
          name: `Zephyrine ${i}`,
          tags: ['anime', 'stargazer'],
          createdAt: new Date(base - i * 1000),
        }),
      );
    }
    const byTag = await createBot(t.database.db, { name: 'Quiet Orchid', tags: ['realistic', 'Moonkeeper'] });
    // Ten digits: no other character's name word (the factories' "Bot <8 hex digits>") starts with them.
    const percent = await createBot(t.database.db, { name: '1000000000% Honest', tags: ['realistic'] });
    const hidden = await createBot(t.database.db, {
      name: 'Zephyrine Secret',
      visibility: 'private',
      authorId: owner.user.id,
    });
    const search = async (q: string, extra = '', headers: Record<string, string> = {}) => {
      const res = await t.app.inject({
        url: `/api/bots/available?${new URLSearchParams({ q })}${extra}`,
        headers,
      });
      expect(res.statusCode).toBe(200);
      return res.json<BotList>();
    };

    // By name, case-insensitively; a private character only for its author.
    expect((await search('zephyr')).results.map((b) => b.id)).toEqual(made.map((b) => b.id));
    const mine = await search('ZEPHYRINE', '', owner.auth);
    expect(mine.results.map((b) => b.id)).toContain(hidden.id);
    // By tag, and every word must match (name or tag).
    expect((await search('moonkeep')).results.map((b) => b.id)).toEqual([byTag.id]);
    expect((await search('orchid moonkeeper')).results.map((b) => b.id)).toEqual([byTag.id]);
    expect((await search('orchid stargazer')).results).toEqual([]);
    // Combined with a filter.
    expect((await search('zephyrine', '&tags=realistic')).results).toEqual([]);
    // Punctuation is no word: it neither matches everything nor breaks the query.
    expect((await search('1000000000%')).results.map((b) => b.id)).toEqual([percent.id]);
    expect((await search('%')).results).toEqual([]);
    expect((await search('_')).results).toEqual([]);
    expect((await search("o'rchid & | ! :*")).results.map((b) => b.id)).toEqual([]);
    // Keyset pages through the search results.
    const first = await search('zephyrine', '&size=2');
    expect(first.results).toHaveLength(2);
    const second = await search('zephyrine', `&size=2&c=${first.next_param}`);
    const third = await search('zephyrine', `&size=2&c=${second.next_param}`);
    expect([...first.results, ...second.results, ...third.results].map((b) => b.id)).toEqual(made.map((b) => b.id));
    expect(third.next_param).toBeNull();
    // Blank is no search.
    expect((await search('   ')).results.length).toBe(30);
  });

  it('validates the search', async () => {
    const long = await t.app.inject(`/api/bots/available?q=${'a'.repeat(81)}`);
    expect(long.statusCode).toBe(400);
    expect(long.json().code).toBe('validation_error');
    expect(Object.keys(long.json().errors)).toContain('q');
    const control = await t.app.inject(`/api/bots/available?q=a%07b`);
    expect(control.statusCode).toBe(400);
    expect(Object.keys(control.json().errors)).toContain('q');
  });

  it('refuses an unknown filter', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/bots/available?tags=spicy' });
    expect(res.statusCode).toBe(400);
  });

  it('hides private and unapproved characters from others; their author sees them', async () => {
    const owner = await createUser(t.app, t.database.db);
    const other = await createUser(t.app, t.database.db);
    const secret = await createBot(t.database.db, {
      visibility: 'private',
      reviewState: 'pending',
      authorId: owner.user.id,
    });
    const pending = await createBot(t.database.db, {
      visibility: 'public',
      reviewState: 'pending',
      authorId: owner.user.id,
    });
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/bot/${secret.slug}`, headers: other.auth })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/bot/${secret.slug}` })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/bot/${pending.slug}`, headers: other.auth })).statusCode,
    ).toBe(404);
    const mine = await t.app.inject({ method: 'GET', url: `/api/bot/${secret.slug}`, headers: owner.auth });
    expect(mine.statusCode).toBe(200);
    expect((await listAll(other.auth)).map((b) => b.id)).not.toContain(secret.id);
    const ownList = (await listAll(owner.auth)).map((b) => b.id);
    expect(ownList).toContain(secret.id);
    expect(ownList).toContain(pending.id);
    const card = await t.app.inject({ method: 'GET', url: `/api/bot/${secret.slug}/card.png`, headers: other.auth });
    expect(card.statusCode).toBe(404);
  });

  it('answers 404 for an unknown slug and 400 for a malformed one', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/bot/no-such-character' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/bot/Bad%20Slug' })).statusCode).toBe(400);
  });
});

describe('create a character', () => {
  it('creates one with a photo; it is first in its author’s list and its picture is private', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const photo = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#ff9900' } })
      .withMetadata({ exif: { IFD0: { Copyright: 'secret-exif' } } })
      .jpeg()
      .toBuffer();
    const form = multipartBody(
      {
        name: 'Nova',
        age: '24',
        description: 'A stargazing poet.',
        greeting: 'Hi there!',
        occupation: ['writer', 'artist'],
        personality: 'dreamy and kind',
        tags: 'anime',
        visibility: 'private',
      },
      [{ field: 'photo', filename: 'me.jpg', contentType: 'image/jpeg', data: photo }],
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/bot/create',
      headers: { ...auth, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    const bot = res.json<BotDetail>();
    expect(bot).toMatchObject({
      name: 'Nova',
      age: 24,
      occupation: ['writer', 'artist'],
      personality: ['dreamy and kind'],
      visibility: 'private',
      kind: 'character',
    });
    const list = (
      await t.app.inject({ method: 'GET', url: '/api/bots/available?size=30', headers: auth })
    ).json<BotList>();
    expect(list.results[0]!.id).toBe(bot.id);
    // The avatar: re-encoded without metadata, served with its signature, not to a guest without it.
    const avatar = await t.app.inject({ method: 'GET', url: bot.avatar_url! });
    expect(avatar.statusCode).toBe(200);
    expect(avatar.rawPayload.includes(Buffer.from('secret-exif'))).toBe(false);
    const meta = await sharp(avatar.rawPayload).metadata();
    expect(meta.exif).toBeUndefined();
    const bare = bot.avatar_url!.split('?')[0]!;
    expect((await t.app.inject({ method: 'GET', url: bare })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: bare, headers: auth })).statusCode).toBe(200);
    const forged = `${bare}?exp=9999999999&sig=AAAA`;
    expect((await t.app.inject({ method: 'GET', url: forged })).statusCode).toBe(404);
  });

  it('creates a persona from JSON and lists it among the user’s personas', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/bot/create',
      headers: auth,
      payload: { name: 'Me, but braver', age: 30, kind: 'persona', description: 'A night-shift nurse who loves jazz.' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const mine = await t.app.inject({ method: 'GET', url: '/api/bots/mine?kind=persona', headers: auth });
    expect(mine.json<{ results: Bot[] }>().results.map((b) => b.id)).toEqual([res.json<Bot>().id]);
    // Personas are not characters of the catalogue.
    expect((await listAll(auth)).map((b) => b.id)).not.toContain(res.json<Bot>().id);
  });

  it('validates fields: age 18 or more, at most 3 choices, a name', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/bot/create',
      headers: auth,
      payload: { name: '', age: 17, description: 'x', occupation: ['a', 'b', 'c', 'd'] },
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors).sort()).toEqual(['age', 'name', 'occupation']);
    expect(res.json().errors.name).toEqual(['Please enter name']);
  });

  it('needs a user', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/bot/create',
      payload: { name: 'A', age: 20, description: 'x' },
    });
    expect(res.statusCode).toBe(401);
  });

  it.each([
    ['en', 'She is a 16-year-old girl who loves games.'],
    ['en', 'A shy schoolgirl in her first year.'],
    ['es', 'Una niña de la escuela primaria.'],
    ['de', 'Sie ist 15 Jahre alt und minderjährig.'],
    ['ru', 'Ей 14 лет, она школьница.'],
    ['zh', '她是一名初中生，今年15岁。'],
  ])('refuses a description presenting a minor (%s) with "Inappropriate content"', async (_lang, description) => {
    const { auth } = await createUser(t.app, t.database.db);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/bot/create',
      headers: auth,
      payload: { name: 'X', age: 25, description },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'inappropriate_content', detail: 'Inappropriate content' });
  });

  it('refuses a photo the moderation provider flags', async () => {
    const flagged = await createTestApp({
      database: t.database,
      moderation: {
        name: 'fake',
        canAutoApprove: true,
        checkText: async () => ({ flagged: false }),
        checkImage: async () => ({ flagged: true }),
      },
    });
    // The route tests' picture judge is the fake (test/helpers.ts), which asks the provider as
    // the local judge does; the local judge's own route tests: image-moderation.test.ts.
    expect(flagged.app.imageModeration.name).toBe('fake');
    const { auth } = await createUser(flagged.app, t.database.db);
    const form = multipartBody({ name: 'Y', age: '30', description: 'An adult.' }, [
      { field: 'photo', filename: 'y.png', contentType: 'image/png', data: await png() },
    ]);
    const res = await flagged.app.inject({
      method: 'POST',
      url: '/api/bot/create',
      headers: { ...auth, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toBe('Inappropriate content');
  });

  describe('photo refusals', () => {
    async function upload(data: Buffer, filename: string, contentType: string) {
      const { auth } = await createUser(t.app, t.database.db);
      const form = multipartBody({ name: 'Pic', age: '22', description: 'An adult.' }, [
        { field: 'photo', filename, contentType, data },
      ]);
      return t.app.inject({
        method: 'POST',
        url: '/api/bot/create',
        headers: { ...auth, ...form.headers },
        payload: form.payload,
      });
    }

    it('a text file named .png → 415', async () => {
      const res = await upload(Buffer.from('just some text, not an image\n'.repeat(20)), 'photo.png', 'image/png');
      expect(res.statusCode).toBe(415);
      expect(res.json().code).toBe('unsupported_media_type');
    });

    it('a 6 MB image → 413', async () => {
      const noise = await sharp(
        Buffer.from(Array.from({ length: 1500 * 1500 * 3 }, () => Math.floor(Math.random() * 256))),
        {
          raw: { width: 1500, height: 1500, channels: 3 },
        },
      )
        .png({ compressionLevel: 0 })
        .toBuffer();
      expect(noise.length).toBeGreaterThan(6 * 1024 * 1024);
      const res = await upload(noise, 'big.png', 'image/png');
      expect(res.statusCode).toBe(413);
    });

    it('a truncated PNG → 400', async () => {
      const full = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#123456' } })
        .composite([
          {
            input: await sharp({ create: { width: 200, height: 200, channels: 3, background: '#fedcba' } })
              .png()
              .toBuffer(),
            left: 50,
            top: 50,
          },
        ])
        .png({ compressionLevel: 0 })
        .toBuffer();
      const res = await upload(full.subarray(0, Math.floor(full.length / 2)), 'cut.png', 'image/png');
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('invalid_image');
    });

    it('an SVG with a script → 415', async () => {
      const svg = Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>',
      );
      const res = await upload(svg, 'x.png', 'image/png');
      expect(res.statusCode).toBe(415);
    });

    it('a 30000×30000 PNG (a decompression bomb) → 413', async () => {
      const ihdr = Buffer.alloc(13);
      ihdr.writeUInt32BE(30000, 0);
      ihdr.writeUInt32BE(30000, 4);
      ihdr.set([8, 2, 0, 0, 0], 8);
      const row = Buffer.alloc(1 + 30000 * 3);
      const idat = zlib.deflateSync(Buffer.concat(Array.from({ length: 64 }, () => row)));
      const bomb = writePng([
        { type: 'IHDR', data: ihdr },
        { type: 'IDAT', data: idat },
        { type: 'IEND', data: Buffer.alloc(0) },
      ]);
      const res = await upload(bomb, 'bomb.png', 'image/png');
      expect(res.statusCode).toBe(413);
    });
  });
});

describe('character cards', () => {
  const lorebook = {
    name: 'Harbor lore',
    entries: [
      {
        keys: ['lighthouse'],
        content: 'The lighthouse keeper sings at dusk.',
        enabled: true,
        insertion_order: 0,
        extensions: { depth: 4 },
      },
    ],
    extensions: { custom_flag: true },
  };
  const cardData = {
    name: 'Marin',
    description: 'A lighthouse keeper in her thirties.',
    personality: 'Calm, wry, warm.',
    scenario: 'A stormy night at the lighthouse.',
    first_mes: 'Come in out of the rain.',
    mes_example: '<START>\n{{user}}: Hi\n{{char}}: Hello, sailor.',
    creator_notes: 'Made for the round-trip test.',
    system_prompt: 'Stay in character.',
    post_history_instructions: 'Keep replies short.',
    alternate_greetings: ['The storm brought you here?'],
    character_book: lorebook,
    tags: ['realistic', 'ocean'],
    creator: 'tester',
    character_version: '2.1',
    extensions: { depth_prompt: { prompt: 'x', depth: 4 }, unknown_tool: { nested: [1, 2, 3] } },
  };

  async function importFile(auth: Record<string, string>, data: Buffer, filename: string, contentType: string) {
    const form = multipartBody({}, [{ field: 'file', filename, contentType, data }]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/bot/import',
      headers: { ...auth, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<BotDetail>();
  }

  async function exportJson(auth: Record<string, string>, slug: string, spec: 'v2' | 'v3') {
    const res = await t.app.inject({ method: 'GET', url: `/api/bot/${slug}/card.json?spec=${spec}`, headers: auth });
    expect(res.statusCode).toBe(200);
    return JSON.parse(res.body);
  }

  const withoutOwnExtension = (card: { data: { extensions: Record<string, unknown> } }) => {
    const { reverie: _ignored, ...extensions } = card.data.extensions;
    return { ...card, data: { ...card.data, extensions } };
  };

  it('round-trips a V2 card through JSON and PNG, keeping the lorebook and unknown extensions', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const original = { spec: 'chara_card_v2', spec_version: '2.0', data: cardData };
    const bot = await importFile(auth, Buffer.from(JSON.stringify(original)), 'marin.json', 'application/json');
    const exported = await exportJson(auth, bot.slug, 'v2');
    expect(withoutOwnExtension(exported)).toEqual(original);

    const pngRes = await t.app.inject({ method: 'GET', url: `/api/bot/${bot.slug}/card.png`, headers: auth });
    expect(pngRes.statusCode).toBe(200);
    expect(pngRes.headers['content-type']).toBe('image/png');
    const chunks = readTextChunks(pngRes.rawPayload);
    expect(chunks.has('chara')).toBe(true);
    expect(chunks.has('ccv3')).toBe(true);
    expect(JSON.parse(Buffer.from(chunks.get('chara')!, 'base64').toString('utf8'))).toEqual(exported);
    const again = await importFile(auth, pngRes.rawPayload, 'marin.png', 'image/png');
    expect(await exportJson(auth, again.slug, 'v2')).toEqual(exported);
  });

  it('round-trips a V3 card, preferring ccv3 over chara in a PNG', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const original = {
      spec: 'chara_card_v3',
      spec_version: '3.0',
      data: {
        ...cardData,
        group_only_greetings: ['Hello, everyone.'],
        nickname: 'Mari',
        assets: [{ type: 'icon', uri: 'ccdefault:', name: 'main', ext: 'png' }],
        source: ['test'],
      },
    };
    // A PNG whose chara chunk says something else: ccv3 must win.
    const decoy = { spec: 'chara_card_v2', spec_version: '2.0', data: { ...cardData, name: 'Decoy' } };
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');
    const { withTextChunks } = await import('./card-png.js');
    const file = withTextChunks(await png(), { chara: b64(decoy), ccv3: b64(original) });
    const bot = await importFile(auth, file, 'marin.png', 'image/png');
    expect(bot.name).toBe('Marin');
    const exported = await exportJson(auth, bot.slug, 'v3');
    expect(withoutOwnExtension(exported)).toEqual(original);
    const again = await importFile(auth, Buffer.from(JSON.stringify(exported)), 'marin.json', 'application/json');
    expect(await exportJson(auth, again.slug, 'v3')).toEqual(exported);
  });

  it('imports a V1 card', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const bot = await importFile(
      auth,
      Buffer.from(
        JSON.stringify({
          name: 'Old Timer',
          description: 'A retired sailor.',
          personality: 'gruff',
          scenario: 'A pub.',
          first_mes: 'Ahoy.',
          mes_example: '',
        }),
      ),
      'old.json',
      'application/json',
    );
    expect(bot).toMatchObject({ name: 'Old Timer', greeting: 'Ahoy.', age: 18, visibility: 'private' });
  });

  it('refuses a card describing a minor, and a file that is no card', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const form = multipartBody({}, [
      {
        field: 'file',
        filename: 'x.json',
        contentType: 'application/json',
        data: Buffer.from(JSON.stringify({ name: 'K', description: 'A 12 year old kid.' })),
      },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/bot/import',
      headers: { ...auth, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode).toBe(422);
    const bad = multipartBody({}, [{ field: 'file', filename: 'x.png', contentType: 'image/png', data: await png() }]);
    const res2 = await t.app.inject({
      method: 'POST',
      url: '/api/bot/import',
      headers: { ...auth, ...bad.headers },
      payload: bad.payload,
    });
    expect(res2.statusCode).toBe(400);
  });
});

describe('official catalogue', () => {
  it('seeds 40+ adult characters with greeting, dialogue, voice, avatar and 3 gallery pictures, idempotently', async () => {
    const seeded = await createTestApp();
    const storage = createMediaStorage(seeded.config);
    const edition = getEdition('reverie');
    const first = await seedDatabase(seeded.database.db, edition, () => {}, { storage });
    expect(first.characters).toBeGreaterThanOrEqual(40);
    expect(await first.drawPictures()).toBe(first.characters * 12);
    const second = await seedDatabase(seeded.database.db, edition, () => {}, { storage });
    expect(second.characters).toBe(0);
    const list = (
      await seeded.app.inject({ method: 'GET', url: '/api/bots/available?size=100&tags=official' })
    ).json<BotList>();
    expect(list.results.length).toBe(first.characters);
    // Two drawn styles (bots.seed.test.ts holds the reviewed lists; none is realistic art).
    expect(new Set(list.results.map((b) => b.tags.find((x) => x === 'anime' || x === 'cartoon'))).size).toBe(2);
    const sample = list.results[0]!;
    const detail = (await seeded.app.inject({ method: 'GET', url: `/api/bot/${sample.slug}` })).json<BotDetail>();
    expect(detail.gallery).toHaveLength(3);
    expect(detail.voice).toBeTruthy();
    for (const url of [detail.avatar_url!, ...detail.gallery]) {
      const res = await seeded.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
    }
    // And 12 private pictures each, sent in chat only: drawn, never on the page nor public.
    const pictures = await seeded.database.db.select().from(botPictures).where(eq(botPictures.botId, sample.id));
    const hidden = pictures.filter((p) => p.visibility === 'private');
    expect(hidden).toHaveLength(12);
    expect(pictures.filter((p) => p.visibility === 'public')).toHaveLength(3);
    const drawn = await Promise.all(hidden.map(async (p) => (await storage.get(p.mediaKey))!.data));
    expect(new Set(drawn.map((data) => data.toString('base64'))).size).toBe(12);
    expect(JSON.stringify(detail)).not.toContain('private-');
    expect((await seeded.app.inject({ url: `/api/media/${hidden[0]!.mediaKey}` })).statusCode).toBe(404);
    // A character seeded before private pictures existed gets them on the next run, once.
    await seeded.database.db.delete(botPictures).where(eq(botPictures.visibility, 'private'));
    await (await seedDatabase(seeded.database.db, edition, () => {}, { storage })).drawPictures();
    expect(await (await seedDatabase(seeded.database.db, edition, () => {}, { storage })).drawPictures()).toBe(0);
    const again = await seeded.database.db.select().from(botPictures).where(eq(botPictures.botId, sample.id));
    expect(again.filter((p) => p.visibility === 'private')).toHaveLength(12);
  }, 240_000);

  it('has distinct, adult official characters the minors detector accepts', () => {
    expect(OFFICIAL_CHARACTERS.length).toBeGreaterThanOrEqual(40);
    expect(new Set(OFFICIAL_CHARACTERS.map((c) => c.greeting)).size).toBe(OFFICIAL_CHARACTERS.length);
    expect(new Set(OFFICIAL_CHARACTERS.map((c) => c.scenario)).size).toBe(OFFICIAL_CHARACTERS.length);
    for (const c of OFFICIAL_CHARACTERS) {
      expect(c.age).toBeGreaterThanOrEqual(18);
      expect(detectMinor([c.description, c.traits, c.scenario, c.greeting].join('\n')), c.slug).toBeNull();
    }
  });
});
