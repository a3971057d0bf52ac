import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { UNBLUR_COST } from '@reverie/shared';
import { botPictures, bots, messages } from '../../db/schema.js';
import { MediaUrls } from '../../lib/media-urls.js';
import type { ImageProvider } from '../../providers/images/index.js';
import { LocalMediaStorage } from '../../providers/storage/local-storage.js';
import type { MediaStorage } from '../../providers/storage/storage.js';
import { balanceOf, expectLedgerMatchesBalances, grantDesires } from '../../../test/billing-helpers.js';
import { createBot, createChat, createMessage, createPremium, createUser } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { PictureService } from './pictures.service.js';

/** A detailed test picture (random pixels), so a blurred preview cannot equal it. */
async function noisyPng(width = 320, height = 480): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i += 1) pixels[i] = (i * 7919 + (i >> 5) * 104729) % 251;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

let t: TestApp;
let storage: MediaStorage;
let service: PictureService;
let mediaDir: string;
const warn = vi.fn();

beforeAll(async () => {
  mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-pictures-'));
  storage = new LocalMediaStorage(mediaDir);
  t = await createTestApp({ storage });
  service = new PictureService({
    db: t.database.db,
    storage,
    urls: new MediaUrls(t.config.JWT_SECRET!),
    images: null,
    log: { warn },
  });
});
afterAll(() => fs.rmSync(mediaDir, { recursive: true, force: true }));
afterEach(async () => expectLedgerMatchesBalances(t.database.db));

/**
 * A character with `count` private pictures (the ones she sends in chat) in storage, and an
 * avatar and `publicCount` page pictures, which are never sent.
 */
async function botWithGallery(count = 2, publicCount = 1) {
  const bot = await createBot(t.database.db, { avatarKey: null });
  const avatarKey = `bots/${bot.id}/avatar.png`;
  await storage.put(avatarKey, await noisyPng(200, 200), 'image/png');
  await t.database.db.update(bots).set({ avatarKey }).where(eq(bots.id, bot.id));
  for (let i = 0; i < publicCount; i += 1) {
    const key = `bots/${bot.id}/page-${i}.png`;
    await storage.put(key, await noisyPng(280 + i * 10, 400), 'image/png');
    await t.database.db.insert(botPictures).values({ botId: bot.id, mediaKey: key, position: i });
  }
  for (let i = 0; i < count; i += 1) {
    const key = `bots/${bot.id}/gallery-${i}.png`;
    await storage.put(key, await noisyPng(300 + i * 10, 400), 'image/png');
    await t.database.db
      .insert(botPictures)
      .values({ botId: bot.id, mediaKey: key, position: publicCount + i, visibility: 'private' });
  }
  return { ...bot, avatarKey };
}

/** A user (premium or not, with a balance) who asked a character for a picture. */
async function pictureFor(options: { premium?: boolean; desires?: number; locale?: string } = {}) {
  const account = await createUser(t.app, t.database.db);
  if (options.premium) await createPremium(t.database.db, account.user.id);
  if (options.desires) await grantDesires(t.database.db, account.user.id, options.desires);
  const bot = await botWithGallery();
  const chat = await createChat(t.database.db, { userId: account.user.id, botId: bot.id });
  const ask = await createMessage(t.database.db, chat, { text: 'send me a selfie' });
  const id = await service.reply({
    chatId: chat.id,
    userId: account.user.id,
    botId: bot.id,
    replyTo: ask.id,
    locale: options.locale ?? 'en',
  });
  const [message] = await t.database.db.select().from(messages).where(eq(messages.id, id));
  return { ...account, bot, chat, ask, message: message! };
}

const unblur = (id: string, auth: { authorization: string }) =>
  t.app.inject({ method: 'GET', url: `/api/unblur/image/${id}`, headers: auth });

describe('PictureService.reply', () => {
  it('sends a free user a blurred picture whose original is private and under another key', async () => {
    const { user, message, ask } = await pictureFor({ locale: 'de' });
    expect(message).toMatchObject({ role: 'bot', kind: 3, state: 'done', replyTo: ask.id, selected: true });
    expect(message.text.length).toBeGreaterThan(0);
    expect(message.mediaKey).toMatch(new RegExp(`^chats/${user.id}/[0-9a-f]{32}\\.webp$`));
    expect(message.originalKey).toMatch(new RegExp(`^originals/${user.id}/[0-9a-f]{32}-[0-9a-f-]{36}\\.webp$`));
    const preview = (await storage.get(message.mediaKey!))!.data;
    const original = (await storage.get(message.originalKey!))!.data;
    expect(preview.equals(original)).toBe(false);
    // The random part of the preview's name says nothing about the original's.
    const name = (key: string) => key.split('/').pop()!.slice(0, 32);
    expect(name(message.mediaKey!)).not.toBe(name(message.originalKey!));
    const meta = await sharp(preview).metadata();
    expect(meta.format).toBe('webp');
  });

  it('sends a premium user the picture itself (kind 2)', async () => {
    const { bot, message } = await pictureFor({ premium: true });
    expect(message.kind).toBe(2);
    expect(message.originalKey).toBeNull();
    expect(message.mediaKey).toMatch(new RegExp(`^bots/${bot.id}/gallery-\\d\\.png$`));
  });

  it('prefers a gallery picture not sent recently in the chat', async () => {
    const { user, bot, chat } = await pictureFor({ premium: true });
    const ask = await createMessage(t.database.db, chat, { text: 'another one' });
    await service.reply({ chatId: chat.id, userId: user.id, botId: bot.id, replyTo: ask.id, locale: 'en' });
    const rows = await t.database.db.select().from(messages).where(eq(messages.chatId, chat.id));
    const keys = rows.filter((m) => m.kind === 2).map((m) => m.mediaKey);
    // Two gallery pictures, two requests: both pictures, no repeat.
    expect(new Set(keys).size).toBe(2);
  });

  it("never sends another user's custom character's explicit picture held for review (docs/moderation.md)", async () => {
    const account = await createUser(t.app, t.database.db);
    await createPremium(t.database.db, account.user.id);
    const bot = await botWithGallery(2);
    await t.database.db.update(bots).set({ isOfficial: false, picturesReviewedAt: null }).where(eq(bots.id, bot.id));
    await t.database.db
      .update(botPictures)
      .set({ explicit: true })
      .where(eq(botPictures.mediaKey, `bots/${bot.id}/gallery-0.png`));
    const chat = await createChat(t.database.db, { userId: account.user.id, botId: bot.id });
    for (let i = 0; i < 3; i += 1) {
      const ask = await createMessage(t.database.db, chat, { text: 'send me a selfie' });
      await service.reply({ chatId: chat.id, userId: account.user.id, botId: bot.id, replyTo: ask.id, locale: 'en' });
    }
    const rows = await t.database.db.select().from(messages).where(eq(messages.chatId, chat.id));
    const keys = rows.filter((m) => m.kind === 2).map((m) => m.mediaKey);
    // The one picture she may send, once; then she says she has none left.
    expect(keys).toEqual([`bots/${bot.id}/gallery-1.png`]);
    expect(rows.filter((m) => m.role === 'bot' && m.kind === 1)).toHaveLength(2);
  });

  it('captions the picture in the user language', async () => {
    const ru = await pictureFor({ locale: 'ru' });
    expect(ru.message.text).toMatch(/[а-яё]/i);
    const ch = await pictureFor({ locale: 'zh-CN' });
    expect(ch.message.text).toMatch(/[\u4e00-\u9fff]/);
  });

  it('uses the image provider when configured, and the gallery when it fails', async () => {
    const generated = await noisyPng(256, 256);
    const provider: ImageProvider = {
      name: 'fake',
      generate: vi.fn(async () => ({ data: generated, contentType: 'image/png' })),
    };
    const failing: ImageProvider = {
      name: 'broken',
      generate: vi.fn(async () => {
        throw new Error('provider down');
      }),
    };
    const account = await createUser(t.app, t.database.db);
    const bot = await botWithGallery(1);
    const chat = await createChat(t.database.db, { userId: account.user.id, botId: bot.id });
    const ask = await createMessage(t.database.db, chat);
    const args = { chatId: chat.id, userId: account.user.id, botId: bot.id, replyTo: ask.id, locale: 'en' };
    const base = { db: t.database.db, storage, urls: new MediaUrls(t.config.JWT_SECRET!), log: { warn } };

    const made = await new PictureService({ ...base, images: provider }).reply(args);
    expect(provider.generate).toHaveBeenCalledWith(
      expect.objectContaining({ name: bot.name, age: bot.age, description: bot.description, tags: bot.tags }),
      expect.anything(),
    );
    const [madeRow] = await t.database.db.select().from(messages).where(eq(messages.id, made));
    expect(madeRow!.originalKey).toMatch(new RegExp(`^originals/${account.user.id}/[0-9a-f]{32}\\.webp$`));
    expect((await sharp((await storage.get(madeRow!.originalKey!))!.data).metadata()).width).toBe(256);

    warn.mockClear();
    const fallback = await new PictureService({ ...base, images: failing }).reply(args);
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ provider: 'broken' }), expect.any(String));
    const [fallbackRow] = await t.database.db.select().from(messages).where(eq(messages.id, fallback));
    const galleryId = (
      await t.database.db
        .select()
        .from(botPictures)
        .where(and(eq(botPictures.botId, bot.id), eq(botPictures.visibility, 'private')))
    )[0]!.id;
    expect(fallbackRow!.originalKey!.endsWith(`-${galleryId}.webp`)).toBe(true);
    // The second reply to the same message is its next alternative, and the one shown.
    expect(fallbackRow).toMatchObject({ altIndex: 1, selected: true });
  });

  it('refuses a chat of another user', async () => {
    const { bot, chat, ask } = await pictureFor();
    const other = await createUser(t.app, t.database.db);
    await expect(
      service.reply({ chatId: chat.id, userId: other.user.id, botId: bot.id, replyTo: ask.id, locale: 'en' }),
    ).rejects.toMatchObject({ statusCode: 404 });
  });
});

describe('GET /api/unblur/image/{id}', () => {
  it('answers 402 not_enough_desires below 3 and spends nothing', async () => {
    const { user, auth, message } = await pictureFor({ desires: 2 });
    const response = await unblur(message.id, auth);
    expect(response.statusCode).toBe(402);
    expect(response.json()).toEqual({ code: 'not_enough_desires', detail: 'not enough desires' });
    expect(await balanceOf(t.database.db, user.id)).toBe(2);
    const [row] = await t.database.db.select().from(messages).where(eq(messages.id, message.id));
    expect(row).toMatchObject({ kind: 3, mediaKey: message.mediaKey });
  });

  it('costs 3 desires, then the message and its URL show the original', async () => {
    const { user, auth, message } = await pictureFor({ desires: 10 });
    const response = await unblur(message.id, auth);
    expect(response.statusCode).toBe(200);
    const body = response.json<{ img_url: string; num_tokens: number }>();
    expect(body.num_tokens).toBe(10 - UNBLUR_COST);
    expect(await balanceOf(t.database.db, user.id)).toBe(7);
    expect(body.img_url).toMatch(new RegExp(`^/api/media/originals/${user.id}/.+\\?exp=\\d+&sig=`));
    const served = await t.app.inject({ method: 'GET', url: body.img_url });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals((await storage.get(message.originalKey!))!.data)).toBe(true);
    const [row] = await t.database.db.select().from(messages).where(eq(messages.id, message.id));
    expect(row).toMatchObject({ kind: 2, mediaKey: message.originalKey, originalKey: message.originalKey });
    // The preview is gone.
    expect(await storage.exists(message.mediaKey!)).toBe(false);
  });

  it('charges the same picture once, also when asked concurrently', async () => {
    const { user, auth, message } = await pictureFor({ desires: 10 });
    expect((await unblur(message.id, auth)).statusCode).toBe(200);
    const again = await unblur(message.id, auth);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ num_tokens: 7 });

    const second = await pictureFor({ desires: 10 });
    const answers = await Promise.all(Array.from({ length: 6 }, () => unblur(second.message.id, second.auth)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await balanceOf(t.database.db, second.user.id)).toBe(7);
    expect(await balanceOf(t.database.db, user.id)).toBe(7);
  });

  it('charges a user with exactly 3 desires once, even concurrently', async () => {
    const { user, auth, message } = await pictureFor({ desires: 3 });
    const answers = await Promise.all(Array.from({ length: 4 }, () => unblur(message.id, auth)));
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect(await balanceOf(t.database.db, user.id)).toBe(0);
  });

  it('is free for premium users', async () => {
    const account = await createUser(t.app, t.database.db);
    const { message } = await (async () => {
      // Received while free, unblurred after subscribing.
      const bot = await botWithGallery(1);
      const chat = await createChat(t.database.db, { userId: account.user.id, botId: bot.id });
      const ask = await createMessage(t.database.db, chat);
      const id = await service.reply({
        chatId: chat.id,
        userId: account.user.id,
        botId: bot.id,
        replyTo: ask.id,
        locale: 'en',
      });
      return { message: (await t.database.db.select().from(messages).where(eq(messages.id, id)))[0]! };
    })();
    expect(message.kind).toBe(3);
    await createPremium(t.database.db, account.user.id);
    const response = await unblur(message.id, account.auth);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ num_tokens: 0 });
    expect(await balanceOf(t.database.db, account.user.id)).toBe(0);
  });

  it("answers 404 for another user's picture, an unknown id or no token", async () => {
    const { message } = await pictureFor({ desires: 10 });
    const other = await createUser(t.app, t.database.db);
    await grantDesires(t.database.db, other.user.id, 10);
    const response = await unblur(message.id, other.auth);
    expect(response.statusCode).toBe(404);
    expect(await balanceOf(t.database.db, other.user.id)).toBe(10);
    expect((await unblur('00000000-0000-4000-8000-000000000000', other.auth)).statusCode).toBe(404);
    expect((await unblur('not-a-uuid', other.auth)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/unblur/image/${message.id}` })).statusCode).toBe(401);
  });

  it('answers 409 not_blurred for a picture that is not blurred, 404 for a text message', async () => {
    const premium = await pictureFor({ premium: true });
    const response = await unblur(premium.message.id, premium.auth);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'not_blurred' });
    expect((await unblur(premium.ask.id, premium.auth)).statusCode).toBe(404);
  });
});

describe('media access to chat pictures', () => {
  it("never serves the original through the blurred picture's URL", async () => {
    const { user, auth, message } = await pictureFor({ desires: 10 });
    const urls = new MediaUrls(t.config.JWT_SECRET!);
    const original = (await storage.get(message.originalKey!))!.data;
    const previewUrl = urls.url(message.mediaKey, { signed: true })!;
    const preview = await t.app.inject({ method: 'GET', url: previewUrl });
    expect(preview.statusCode).toBe(200);
    expect(preview.rawPayload.equals(original)).toBe(false);
    expect(preview.rawPayload.equals((await storage.get(message.mediaKey!))!.data)).toBe(true);
    expect(previewUrl).not.toContain(message.originalKey!.split('/').pop()!.slice(0, 32));

    // The owner may load the preview with their token; nobody loads the original without a signature.
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/media/${message.mediaKey}`, headers: auth })).statusCode,
    ).toBe(200);
    const other = await createUser(t.app, t.database.db);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/media/${message.mediaKey}`, headers: other.auth })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/media/${message.mediaKey}` })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/media/${message.originalKey}`, headers: auth })).statusCode,
    ).toBe(404);
    // A signature for the preview does not open the original.
    const [, query] = previewUrl.split('?');
    expect((await t.app.inject({ method: 'GET', url: `/api/media/${message.originalKey}?${query}` })).statusCode).toBe(
      404,
    );
    expect(await balanceOf(t.database.db, user.id)).toBe(10);
  });
});
