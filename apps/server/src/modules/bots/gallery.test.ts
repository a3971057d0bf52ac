import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_GALLERY_MAX, type BotDetail, type BotGallery } from '@reverie/shared';
import { botPictures, bots } from '../../db/schema.js';
import { blurredKeyOf } from './explicit-pictures.js';
import type { ImageModeration } from '../../providers/image-moderation/index.js';
import { LocalMediaStorage } from '../../providers/storage/local-storage.js';
import { createBot, createUser } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { multipartBody } from '../../../test/multipart.js';

// The author's gallery (issue 30, docs/characters.md "The author's gallery"): upload through the
// picture judge, visibility, delete with its file, 404 for others, the cap and the upload limit;
// on PGlite and PostgreSQL (TEST_DB).

// The judge's verdict stands in as a test double (the judge itself: image-moderation.test.ts).
let verdict: 'ok' | 'minor' | 'explicit' = 'ok';
const judge = {
  name: 'local',
  judge: async () => ({
    verdict,
    faces: verdict === 'minor' ? [{ box: [0, 0, 10, 10], age: 9, score: 0.9 }] : [],
    nudity: { drawing: 0, hentai: 0, neutral: 0, porn: verdict === 'explicit' ? 0.99 : 0, sexy: 0 },
    judge: 'local',
    ms: 1,
  }),
  warm: async () => undefined,
  close: async () => undefined,
} as unknown as ImageModeration;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-gallery-'));
const storage = new LocalMediaStorage(dir);
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ storage, imageModeration: judge, env: { CHARACTER_PHOTOS_PER_HOUR: '40' } });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const png = () =>
  sharp({ create: { width: 48, height: 48, channels: 3, background: '#c0aede' } })
    .png()
    .toBuffer();

async function upload(auth: { authorization: string }, slug: string, visibility?: 'public' | 'private') {
  const form = multipartBody({}, [{ field: 'file', filename: 'p.png', contentType: 'image/png', data: await png() }]);
  return t.app.inject({
    method: 'POST',
    url: `/api/bot/${slug}/gallery${visibility ? `?visibility=${visibility}` : ''}`,
    headers: { ...auth, ...form.headers },
    payload: form.payload,
  });
}

const keysOf = async (botId: string) =>
  (await t.database.db.select().from(botPictures).where(eq(botPictures.botId, botId))).map((p) => p.mediaKey);

describe("the author's gallery", () => {
  it('adds, lists, makes private and deletes a picture with its file; the page shows the public ones only', async () => {
    verdict = 'ok';
    const author = await createUser(t.app, t.database.db);
    const bot = await createBot(t.database.db, { authorId: author.user.id });
    const added = await upload(author.auth, bot.slug);
    expect(added.statusCode, added.body).toBe(201);
    const [picture] = added.json<BotGallery>().results;
    expect(picture).toMatchObject({ visibility: 'public', explicit: false });
    expect(added.json<BotGallery>()).toMatchObject({ max: BOT_GALLERY_MAX });
    const [key] = await keysOf(bot.id);
    expect(await storage.exists(key!)).toBe(true);
    expect((await t.app.inject({ url: `/api/bot/${bot.slug}` })).json<BotDetail>().gallery).toHaveLength(1);

    const hidden = await t.app.inject({
      method: 'PATCH',
      url: `/api/bot/${bot.slug}/gallery/${picture!.id}`,
      headers: author.auth,
      payload: { visibility: 'private' },
    });
    expect(hidden.statusCode).toBe(200);
    expect(hidden.json<BotGallery>().results[0]!.visibility).toBe('private');
    expect((await t.app.inject({ url: `/api/bot/${bot.slug}` })).json<BotDetail>().gallery).toHaveLength(0);
    const listed = await t.app.inject({ url: `/api/bot/${bot.slug}/gallery`, headers: author.auth });
    expect(listed.json<BotGallery>().results.map((p) => p.visibility)).toEqual(['private']);

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/bot/${bot.slug}/gallery/${picture!.id}`,
      headers: author.auth,
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json<BotGallery>().results).toEqual([]);
    expect(await storage.exists(key!)).toBe(false);
    expect(await keysOf(bot.id)).toEqual([]);
  });

  it("refuses a minor's face (422, nothing stored); marks an explicit one and holds the pictures for review", async () => {
    const author = await createUser(t.app, t.database.db);
    const bot = await createBot(t.database.db, {
      authorId: author.user.id,
      picturesReviewedAt: new Date(),
      reviewState: 'rejected',
      reviewReason: 'Blurry',
    });
    verdict = 'minor';
    const minor = await upload(author.auth, bot.slug);
    expect(minor.statusCode).toBe(422);
    expect(minor.json()).toMatchObject({ code: 'inappropriate_content' });
    expect(await keysOf(bot.id)).toEqual([]);
    expect(fs.existsSync(path.join(dir, 'bots', bot.id)) ? fs.readdirSync(path.join(dir, 'bots', bot.id)) : []).toEqual(
      [],
    );

    verdict = 'explicit';
    const explicit = await upload(author.auth, bot.slug);
    verdict = 'ok';
    expect(explicit.statusCode).toBe(201);
    expect(explicit.json<BotGallery>().results[0]).toMatchObject({ explicit: true, visibility: 'public' });
    const [row] = await t.database.db.select().from(bots).where(eq(bots.id, bot.id));
    // Blurred for others until reviewed; the rejected public character goes back to the queue.
    expect(row).toMatchObject({ picturesReviewedAt: null, reviewState: 'pending', reviewReason: null });
    const [key] = await keysOf(bot.id);
    expect(await storage.exists(blurredKeyOf(key!))).toBe(true);
  });

  it("is a 404 for another user, a deleted character and another character's picture", async () => {
    verdict = 'ok';
    const author = await createUser(t.app, t.database.db);
    const other = await createUser(t.app, t.database.db);
    const bot = await createBot(t.database.db, { authorId: author.user.id });
    const picture = (await upload(author.auth, bot.slug)).json<BotGallery>().results[0]!;
    const url = `/api/bot/${bot.slug}/gallery/${picture.id}`;
    expect((await t.app.inject({ url: `/api/bot/${bot.slug}/gallery`, headers: other.auth })).statusCode).toBe(404);
    expect((await upload(other.auth, bot.slug)).statusCode).toBe(404);
    const patch = { method: 'PATCH' as const, url, payload: { visibility: 'private' } };
    expect((await t.app.inject({ ...patch, headers: other.auth })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url, headers: other.auth })).statusCode).toBe(404);
    const own = await createBot(t.database.db, { authorId: other.user.id });
    const cross = `/api/bot/${own.slug}/gallery/${picture.id}`;
    expect((await t.app.inject({ method: 'DELETE', url: cross, headers: other.auth })).statusCode).toBe(404);
    expect(await keysOf(bot.id)).toHaveLength(1);
    await t.database.db.update(bots).set({ deletedAt: new Date() }).where(eq(bots.id, bot.id));
    expect((await t.app.inject({ url: `/api/bot/${bot.slug}/gallery`, headers: author.auth })).statusCode).toBe(404);
    expect((await t.app.inject({ ...patch, headers: author.auth })).statusCode).toBe(404);
  });

  it('caps a gallery at BOT_GALLERY_MAX pictures (409 gallery_full), 12 of them public', async () => {
    verdict = 'ok';
    const author = await createUser(t.app, t.database.db);
    const bot = await createBot(t.database.db, { authorId: author.user.id });
    // Filled directly (the upload limit is tested below); one upload checks the cap.
    await t.database.db.insert(botPictures).values(
      Array.from({ length: BOT_GALLERY_MAX }, (_, i) => ({
        botId: bot.id,
        mediaKey: `bots/${bot.id}/picture-${i}.webp`,
        position: i,
        visibility: i < 12 ? ('public' as const) : ('private' as const),
      })),
    );
    const full = await upload(author.auth, bot.slug, 'private');
    expect(full.statusCode).toBe(409);
    expect(full.json()).toMatchObject({ code: 'gallery_full' });
    const list = (await t.app.inject({ url: `/api/bot/${bot.slug}/gallery`, headers: author.auth })).json<BotGallery>();
    const lastPrivate = list.results.at(-1)!;
    const publicFull = await t.app.inject({
      method: 'PATCH',
      url: `/api/bot/${bot.slug}/gallery/${lastPrivate.id}`,
      headers: author.auth,
      payload: { visibility: 'public' },
    });
    expect(publicFull.statusCode).toBe(409);
    expect(publicFull.json()).toMatchObject({ code: 'gallery_full' });
  });
});

describe("the console's gallery", () => {
  it("keeps the judge's explicit verdict on an official character's picture (blurred for guests)", async () => {
    const { auth: admin } = await createUser(t.app, t.database.db, { role: 'admin' });
    const bot = await createBot(t.database.db, { isOfficial: true });
    verdict = 'explicit';
    try {
      const form = multipartBody({}, [
        { field: 'file', filename: 'p.png', contentType: 'image/png', data: await png() },
      ]);
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/admin/characters/${bot.id}/pictures`,
        headers: { ...admin, ...form.headers },
        payload: form.payload,
      });
      expect(res.statusCode).toBe(201);
      const [stored] = await t.database.db.select().from(botPictures).where(eq(botPictures.botId, bot.id));
      expect(stored).toMatchObject({ explicit: true, visibility: 'public' });
      expect(fs.existsSync(path.join(dir, blurredKeyOf(stored!.mediaKey)))).toBe(true);
    } finally {
      verdict = 'ok';
    }
  });
});

describe('the upload limit', () => {
  it('answers 429 past CHARACTER_PHOTOS_PER_HOUR, counted per account', async () => {
    verdict = 'ok';
    const limited = await createTestApp({ storage, imageModeration: judge, env: { CHARACTER_PHOTOS_PER_HOUR: '2' } });
    {
      const author = await createUser(limited.app, limited.database.db);
      const bot = await createBot(limited.database.db, { authorId: author.user.id });
      const form = multipartBody({}, [
        { field: 'file', filename: 'p.png', contentType: 'image/png', data: await png() },
      ]);
      const send = (auth: { authorization: string }) =>
        limited.app.inject({
          method: 'POST',
          url: `/api/bot/${bot.slug}/gallery`,
          headers: { ...auth, ...form.headers },
          payload: form.payload,
        });
      expect((await send(author.auth)).statusCode).toBe(201);
      expect((await send(author.auth)).statusCode).toBe(201);
      const third = await send(author.auth);
      expect(third.statusCode).toBe(429);
      expect(third.headers['retry-after']).toBeDefined();
      // Another account has its own count (and is told the character does not exist).
      const other = await createUser(limited.app, limited.database.db);
      expect((await send(other.auth)).statusCode).toBe(404);
    }
  });
});
