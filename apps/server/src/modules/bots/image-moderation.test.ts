import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Bot, BotDetail, BotList } from '@reverie/shared';
import { createUser } from '../../../test/factories.js';
import { createTestApp, testConfig, type TestApp } from '../../../test/helpers.js';
import { multipartBody } from '../../../test/multipart.js';
import { bots } from '../../db/schema.js';
import { createMediaStorage, type MediaStorage } from '../../providers/storage/index.js';
import { withTextChunks } from './card-png.js';

/**
 * Uploaded pictures through the real routes and the real picture judge (face-api and nsfwjs
 * in the worker thread; the models load once for this file). The test pictures and what each
 * proves: test/fixtures/faces/LICENSES.md and docs/moderation.md.
 */
const FACES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/faces');
const picture = (file: string) => fs.readFileSync(path.join(FACES, file));
const ADULT = 'astronaut-nasa.png';
const ADULT_2 = 'grace-hopper-usn.jpg';
/** An adult's face perturbed until the age net scores it a child (what it proves: LICENSES.md). */
const MINOR = 'adversarial-minor-astronaut.png';
/** A coffee cup perturbed until the nudity classifier scores it porn (it tests the marking path only). */
const EXPLICIT = 'adversarial-explicit-coffee.png';

/** Media storage that remembers every key written, to show that a refused picture stored nothing. */
function recordingStorage(): { storage: MediaStorage; written: string[] } {
  const inner = createMediaStorage(testConfig());
  const written: string[] = [];
  const storage: MediaStorage = Object.assign(Object.create(inner) as MediaStorage, {
    put: async (key: string, data: Buffer, contentType: string) => {
      written.push(key);
      await inner.put(key, data, contentType);
    },
  });
  return { storage, written };
}

let t: TestApp;
let written: string[];
let mediaStorage: MediaStorage;
beforeAll(async () => {
  const recorded = recordingStorage();
  written = recorded.written;
  mediaStorage = recorded.storage;
  // The real judge (the other route tests get the fake, test/helpers.ts).
  t = await createTestApp({ storage: recorded.storage, env: { IMAGE_MODERATION: 'local' } });
  expect(t.app.imageModeration.name).toBe('local');
  // Loaded once for the file, before the first test's clock starts.
  await t.app.imageModeration.warm();
}, 120_000);

async function upload(
  auth: Record<string, string>,
  data: Buffer,
  fields: Record<string, string> = {},
  filename = 'photo.png',
) {
  const form = multipartBody({ name: 'Nova', age: '30', description: 'A stargazing poet.', ...fields }, [
    { field: 'photo', filename, contentType: filename.endsWith('.jpg') ? 'image/jpeg' : 'image/png', data },
  ]);
  return t.app.inject({
    method: 'POST',
    url: '/api/bot/create',
    headers: { ...auth, ...form.headers },
    payload: form.payload,
  });
}

async function botsOf(userId: string) {
  return t.database.db.select().from(bots).where(eq(bots.authorId, userId));
}

describe('a face judged under 18 is refused with "Inappropriate content", nothing stored', () => {
  it.each([
    ['a character', { kind: 'character' }],
    ['a persona', { kind: 'persona' }],
  ])('as %s', async (_what, fields) => {
    const { auth, user } = await createUser(t.app, t.database.db);
    const before = written.length;
    const res = await upload(auth, picture(MINOR), fields);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ code: 'inappropriate_content', detail: 'Inappropriate content' });
    expect(await botsOf(user.id)).toHaveLength(0);
    expect(written.slice(before)).toEqual([]);
  });

  it("as a Character Card PNG's picture", async () => {
    const { auth, user } = await createUser(t.app, t.database.db);
    const card = { spec: 'chara_card_v2', spec_version: '2.0', data: { name: 'Card', description: 'An adult.' } };
    const png = withTextChunks(await sharp(picture(MINOR)).png().toBuffer(), {
      chara: Buffer.from(JSON.stringify(card)).toString('base64'),
    });
    const form = multipartBody({}, [{ field: 'file', filename: 'card.png', contentType: 'image/png', data: png }]);
    const before = written.length;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/bot/import',
      headers: { ...auth, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().detail).toBe('Inappropriate content');
    expect(await botsOf(user.id)).toHaveLength(0);
    expect(written.slice(before)).toEqual([]);
  });

  it('in the language of the request', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const res = await upload({ ...auth, 'accept-language': 'de' }, picture(MINOR));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'inappropriate_content', detail: 'Unangemessener Inhalt' });
  });
});

describe("adults' pictures", () => {
  it.each([ADULT, ADULT_2])('%s is accepted, not marked explicit', async (file) => {
    const { auth, user } = await createUser(t.app, t.database.db);
    const res = await upload(auth, picture(file), {}, file.endsWith('.jpg') ? 'photo.jpg' : 'photo.png');
    expect(res.statusCode, res.body).toBe(201);
    const [row] = await botsOf(user.id);
    expect(row!.avatarExplicit).toBe(false);
    expect(res.json<BotDetail>().avatar_url).not.toContain('.blurred.');
  });

  it('a non-image is refused as before (415), before any judging', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const res = await upload(auth, Buffer.from('not a picture at all'), {}, 'photo.png');
    expect(res.statusCode).toBe(415);
  });
});

describe('an explicit picture', () => {
  let author: Awaited<ReturnType<typeof createUser>>;
  let created: BotDetail;
  beforeAll(async () => {
    author = await createUser(t.app, t.database.db);
    const res = await upload(author.auth, picture(EXPLICIT), { visibility: 'public', tags: 'realistic' });
    expect(res.statusCode, res.body).toBe(201);
    created = res.json<BotDetail>();
    // An administrator approved the character itself (the review queue), not yet its pictures.
    await t.database.db
      .update(bots)
      .set({ reviewState: 'approved', reviewedAt: new Date() })
      .where(eq(bots.id, created.id));
  });

  async function listed(headers: Record<string, string> = {}): Promise<Bot> {
    const res = await t.app.inject({ method: 'GET', url: '/api/bots/available?size=30&tags=custom', headers });
    expect(res.statusCode).toBe(200);
    const bot = res.json<BotList>().results.find((b) => b.id === created.id);
    expect(bot).toBeDefined();
    return bot!;
  }

  it('is accepted and marked (avatar_explicit)', async () => {
    const [row] = await botsOf(author.user.id);
    expect(row!.avatarExplicit).toBe(true);
    expect(row!.picturesReviewedAt).toBeNull();
  });

  it('is blurred in the public listing and profile; the blurred URL never gives the original', async () => {
    const guest = await listed();
    expect(guest.avatar_url).toMatch(/\.blurred\.webp$/);
    const profile = await t.app.inject({ method: 'GET', url: `/api/bot/${created.slug}` });
    expect(profile.json<BotDetail>().avatar_url).toBe(guest.avatar_url);
    const other = await createUser(t.app, t.database.db);
    expect((await listed(other.auth)).avatar_url).toBe(guest.avatar_url);

    const blurred = await t.app.inject({ method: 'GET', url: guest.avatar_url! });
    expect(blurred.statusCode).toBe(200);
    const blurredMeta = await sharp(blurred.rawPayload).metadata();
    expect(blurredMeta.width).toBe(384);
    // Its card-size copy is blurred too.
    expect((await t.app.inject({ method: 'GET', url: `${guest.avatar_url}?w=256` })).statusCode).toBe(200);
    // The original, by its plain address: not to a guest nor to another user.
    const original = guest.avatar_url!.replace(/\.blurred\.webp$/, '');
    expect((await t.app.inject({ method: 'GET', url: original })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `${original}?w=256` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: original, headers: other.auth })).statusCode).toBe(404);
  });

  it("leaves in an exported card's PNG only blurred, but to its author", async () => {
    const guest = await t.app.inject({ method: 'GET', url: `/api/bot/${created.slug}/card.png` });
    expect(guest.statusCode).toBe(200);
    expect((await sharp(guest.rawPayload).metadata()).width).toBe(384);
    const own = await t.app.inject({ method: 'GET', url: `/api/bot/${created.slug}/card.png`, headers: author.auth });
    expect((await sharp(own.rawPayload).metadata()).width).toBe(224);
  });

  it('exports the stored blurred copy (no new blur per export); a blurred URL of a hidden character makes no file', async () => {
    const [row] = await botsOf(author.user.id);
    const blurredKey = `${row!.avatarKey}.blurred.webp`;
    const before = await mediaStorage.get(blurredKey);
    // A stored copy of its own size shows which picture the export used.
    const marker = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#808080' } })
      .webp()
      .toBuffer();
    await mediaStorage.put(blurredKey, marker, 'image/webp');
    try {
      const guest = await t.app.inject({ method: 'GET', url: `/api/bot/${created.slug}/card.png` });
      expect((await sharp(guest.rawPayload).metadata()).width).toBe(40);
    } finally {
      if (before) await mediaStorage.put(blurredKey, before.data, 'image/webp');
    }
    // A character nobody but its author may see: its blurred copy is not made for a stranger.
    await t.database.db.update(bots).set({ visibility: 'private' }).where(eq(bots.id, created.id));
    try {
      await mediaStorage.delete(blurredKey);
      const stranger = await t.app.inject({ method: 'GET', url: `/api/media/${blurredKey}` });
      expect(stranger.statusCode).toBe(404);
      expect(await mediaStorage.exists(blurredKey)).toBe(false);
      // Its author gets it, made from the original.
      const own = await t.app.inject({ method: 'GET', url: `/api/media/${blurredKey}`, headers: author.auth });
      expect(own.statusCode).toBe(200);
    } finally {
      await t.database.db.update(bots).set({ visibility: 'public' }).where(eq(bots.id, created.id));
    }
  });

  it('is shown unblurred to its author, by a signed URL', async () => {
    const mine = await listed(author.auth);
    expect(mine.avatar_url).not.toContain('.blurred.');
    expect(mine.avatar_url).toMatch(/\.webp\?exp=\d+&sig=/);
    const res = await t.app.inject({ method: 'GET', url: mine.avatar_url! });
    expect(res.statusCode).toBe(200);
    expect((await sharp(res.rawPayload).metadata()).width).toBe(224);
    const own = await t.app.inject({ method: 'GET', url: '/api/bots/mine', headers: author.auth });
    expect(own.json<{ results: Bot[] }>().results[0]!.avatar_url).toBe(mine.avatar_url);
  });

  it('once an administrator reviewed the pictures: sharp (signed) to a logged-in user, still blurred to a guest', async () => {
    await t.database.db.update(bots).set({ picturesReviewedAt: new Date() }).where(eq(bots.id, created.id));
    try {
      const guest = await listed();
      expect(guest.avatar_url).toMatch(/\.blurred\.webp$/);
      const profile = await t.app.inject({ method: 'GET', url: `/api/bot/${created.slug}` });
      expect(profile.json<BotDetail>().avatar_url).toBe(guest.avatar_url);
      // The original by its plain address stays closed to a guest after the review.
      const original = guest.avatar_url!.replace(/\.blurred\.webp$/, '');
      expect((await t.app.inject({ method: 'GET', url: original })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: `${original}?w=256` })).statusCode).toBe(404);

      const member = await createUser(t.app, t.database.db);
      const seen = await listed(member.auth);
      expect(seen.avatar_url).not.toContain('.blurred.');
      expect(seen.avatar_url).toMatch(/\.webp\?exp=\d+&sig=/);
      const sharpFile = await t.app.inject({ method: 'GET', url: seen.avatar_url! });
      expect(sharpFile.statusCode).toBe(200);
      expect((await sharp(sharpFile.rawPayload).metadata()).width).toBe(224);
      const detail = await t.app.inject({ method: 'GET', url: `/api/bot/${created.slug}`, headers: member.auth });
      expect(detail.json<BotDetail>().avatar_url).not.toContain('.blurred.');

      // The exported card follows the same rule.
      const guestCard = await t.app.inject({ method: 'GET', url: `/api/bot/${created.slug}/card.png` });
      expect((await sharp(guestCard.rawPayload).metadata()).width).toBe(384);
      const memberCard = await t.app.inject({
        method: 'GET',
        url: `/api/bot/${created.slug}/card.png`,
        headers: member.auth,
      });
      expect((await sharp(memberCard.rawPayload).metadata()).width).toBe(224);
    } finally {
      await t.database.db.update(bots).set({ picturesReviewedAt: null }).where(eq(bots.id, created.id));
    }
  });

  it("an official character's explicit picture is blurred to a guest, sharp to a logged-in user", async () => {
    await t.database.db.update(bots).set({ isOfficial: true }).where(eq(bots.id, created.id));
    try {
      const official = async (headers: Record<string, string> = {}) => {
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/bots/available?size=30&tags=official',
          headers,
        });
        return res.json<BotList>().results.find((b) => b.id === created.id);
      };
      expect((await official())?.avatar_url).toMatch(/\.blurred\.webp$/);
      const member = await createUser(t.app, t.database.db);
      const seen = await official(member.auth);
      expect(seen?.avatar_url).not.toContain('.blurred.');
      expect((await t.app.inject({ method: 'GET', url: seen!.avatar_url! })).statusCode).toBe(200);
    } finally {
      await t.database.db.update(bots).set({ isOfficial: false }).where(eq(bots.id, created.id));
    }
  });

  it('stays private and unblurred for its author in a private character', async () => {
    const res = await upload(author.auth, picture(EXPLICIT), { visibility: 'private', name: 'Private' });
    expect(res.statusCode, res.body).toBe(201);
    const bot = res.json<BotDetail>();
    expect(bot.avatar_url).toMatch(/\.webp\?exp=\d+&sig=/);
    expect(bot.avatar_url).not.toContain('.blurred.');
  });
});
