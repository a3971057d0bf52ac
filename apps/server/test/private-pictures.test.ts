/**
 * Issue 26 item 4: a paid picture is never free elsewhere. A character's pictures are public
 * (avatar, the page's) or private (sent in chat, blurred for free users until unblurred); a
 * private picture is never shown unblurred to anyone who was not given it, on any surface.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCALES, type BotDetail, type Message } from '@reverie/shared';
import { botPictures, bots, messages } from '../src/db/schema.js';
import { translate } from '../src/lib/i18n.js';
import { MediaUrls } from '../src/lib/media-urls.js';
import { LocalMediaStorage } from '../src/providers/storage/local-storage.js';
import type { MediaStorage } from '../src/providers/storage/storage.js';
import { balanceOf, grantDesires } from './billing-helpers.js';
import { createBot, createChat, createMessage, createPremium, createUser } from './factories.js';
import { createTestApp, type TestApp } from './helpers.js';
import { parseSse } from './scripted-llm.js';

const TEMPLATE = `<!doctype html><html lang="en"><head><title>x</title><!--app-head--></head><body><div id="root"></div></body></html>`;

let t: TestApp;
let storage: MediaStorage;
let urls: MediaUrls;
let mediaDir: string;
let distDir: string;

beforeAll(async () => {
  mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-private-'));
  distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-private-dist-'));
  fs.writeFileSync(path.join(distDir, 'index.html'), TEMPLATE);
  storage = new LocalMediaStorage(mediaDir);
  t = await createTestApp({ storage, webDistDir: distDir, env: { PUBLIC_URL: 'https://reverie.example' } });
  urls = new MediaUrls(t.config.JWT_SECRET!);
});
afterAll(() => {
  fs.rmSync(mediaDir, { recursive: true, force: true });
  fs.rmSync(distDir, { recursive: true, force: true });
});

const png = (colour: string) =>
  sharp({ create: { width: 120, height: 160, channels: 3, background: colour } })
    .png()
    .toBuffer();

/** A listed character with an avatar, two page pictures and `privateCount` private ones, all stored. */
async function character(privateCount = 3, overrides: Partial<typeof bots.$inferInsert> = {}) {
  const bot = await createBot(t.database.db, overrides);
  const avatarKey = `bots/${bot.id}/avatar.png`;
  await storage.put(avatarKey, await png('#204060'), 'image/png');
  await t.database.db
    .update(bots)
    .set({ avatarKey, avatarUrl: `/api/media/${avatarKey}` })
    .where(eq(bots.id, bot.id));
  const publicKeys = [1, 2].map((n) => `bots/${bot.id}/gallery-${n}.png`);
  const privateKeys = Array.from({ length: privateCount }, (_, n) => `bots/${bot.id}/private-${n + 1}.png`);
  for (const [position, key] of [...publicKeys, ...privateKeys].entries()) {
    await storage.put(key, await png(`#${(position * 40 + 30).toString(16).padStart(2, '0')}8050`), 'image/png');
    await t.database.db.insert(botPictures).values({
      botId: bot.id,
      mediaKey: key,
      position,
      visibility: privateKeys.includes(key) ? 'private' : 'public',
    });
  }
  return { bot: { ...bot, avatarKey }, publicKeys, privateKeys };
}

/** Asks the character for a picture through the chat route; answers the events and the last message. */
async function ask(auth: { authorization: string }, chatId: string, text = 'Send me a selfie') {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/chat/${chatId}/messages`,
    headers: auth,
    payload: { client_id: randomUUID(), text },
  });
  expect(res.statusCode).toBe(200);
  const events = parseSse(res.body) as { event: string; data: Message }[];
  return { events, message: events.at(-1)!.data };
}

/** Which of `keys` appear in a response body (a key, or its file name inside a URL). */
const leaked = (body: string, keys: string[]) => keys.filter((key) => body.includes(key));

describe('a character’s private pictures on every surface', () => {
  it('the page, the chat header data, the catalogue and the link preview never name a private picture', async () => {
    const { bot, publicKeys, privateKeys } = await character(3);
    const free = await createUser(t.app, t.database.db);
    await grantDesires(t.database.db, free.user.id, 10);
    const chat = await createChat(t.database.db, { userId: free.user.id, botId: bot.id });
    // She sends one (blurred) and the user unblurs it: still never on a shared surface.
    const { message } = await ask(free.auth, chat.id);
    expect((await t.app.inject({ url: `/api/unblur/image/${message.id}`, headers: free.auth })).statusCode).toBe(200);

    for (const auth of [{}, free.auth]) {
      const page = await t.app.inject({ url: `/api/bot/${bot.slug}`, headers: auth });
      expect(page.statusCode).toBe(200);
      expect(leaked(page.body, privateKeys)).toEqual([]);
      expect(page.json<BotDetail>().gallery).toEqual(publicKeys.map((key) => `/api/media/${key}`));
      expect(page.json<BotDetail>().avatar_url).toBe(`/api/media/${bot.avatarKey}`);

      const catalogue = await t.app.inject({ url: `/api/bots/available?size=100`, headers: auth });
      expect(catalogue.statusCode).toBe(200);
      expect(leaked(catalogue.body, privateKeys)).toEqual([]);
    }
    // The chat header reads the chat and the chats list (the character's avatar and name).
    for (const url of [`/api/chat/${chat.id}`, '/api/chats/available']) {
      const res = await t.app.inject({ url, headers: free.auth });
      expect(res.statusCode, url).toBe(200);
      expect(leaked(res.body, privateKeys), url).toEqual([]);
      expect(res.body, url).toContain(bot.avatarKey);
    }
    // The guest's first catalogue page in index.html, and the page's link preview.
    const home = await t.app.inject('/');
    expect(leaked(home.body, privateKeys)).toEqual([]);
    const preview = await t.app.inject(`/${bot.slug}`);
    expect(preview.statusCode).toBe(200);
    expect(leaked(preview.body, privateKeys)).toEqual([]);
    expect(preview.body).toContain(
      `<meta property="og:image" content="https://reverie.example/api/media/${bot.avatarKey}" />`,
    );
  });

  it('the link preview shows the current avatar even when the stored avatar URL names a picture now private', async () => {
    const { bot, privateKeys } = await character(1);
    await t.database.db
      .update(bots)
      .set({ avatarUrl: `/api/media/${privateKeys[0]}` })
      .where(eq(bots.id, bot.id));
    const preview = await t.app.inject(`/${bot.slug}`);
    expect(leaked(preview.body, privateKeys)).toEqual([]);
    expect(preview.body).toContain(`og:image" content="https://reverie.example/api/media/${bot.avatarKey}"`);
  });

  it('the media route refuses a private picture, in any size or copy, to anyone but a signature, its author or an administrator', async () => {
    const author = await createUser(t.app, t.database.db);
    const { bot, publicKeys, privateKeys } = await character(1, { authorId: author.user.id, isOfficial: false });
    const free = await createUser(t.app, t.database.db);
    const premium = await createUser(t.app, t.database.db);
    await createPremium(t.database.db, premium.user.id);
    const admin = await createUser(t.app, t.database.db, { role: 'admin' });
    const key = privateKeys[0]!;
    for (const url of [`/api/media/${key}`, `/api/media/${key}?w=256`, `/api/media/${key}.blurred.webp`]) {
      for (const headers of [{}, free.auth, premium.auth, { range: 'bytes=0-9' }]) {
        const refused = await t.app.inject({ url, headers });
        expect(refused.statusCode, url).toBe(404);
      }
    }
    expect(await storage.exists(`${key}.w256.webp`)).toBe(false);
    expect((await t.app.inject({ url: `/api/media/${key}`, headers: author.auth })).statusCode).toBe(200);
    expect((await t.app.inject({ url: `/api/media/${key}`, headers: admin.auth })).statusCode).toBe(200);
    expect((await t.app.inject({ url: urls.url(key, { signed: true })! })).statusCode).toBe(200);
    // Her page's pictures and avatar stay public, cached by anyone.
    for (const open of [publicKeys[0]!, bot.avatarKey]) {
      const res = await t.app.inject({ url: `/api/media/${open}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=86400');
    }
  });

  it('the API names a private picture only to whoever was given it clear, and only signed', async () => {
    const { bot, privateKeys } = await character(2);
    const free = await createUser(t.app, t.database.db);
    const freeChat = await createChat(t.database.db, { userId: free.user.id, botId: bot.id });
    const blurred = await ask(free.auth, freeChat.id);
    expect(blurred.message).toMatchObject({ kind: 3 });
    const history = await t.app.inject({ url: `/api/chat/history/${freeChat.id}`, headers: free.auth });
    expect(history.statusCode).toBe(200);
    expect(leaked(history.body + JSON.stringify(blurred.events), privateKeys)).toEqual([]);

    const premium = await createUser(t.app, t.database.db);
    await createPremium(t.database.db, premium.user.id);
    const premiumChat = await createChat(t.database.db, { userId: premium.user.id, botId: bot.id });
    const clear = await ask(premium.auth, premiumChat.id);
    expect(clear.message.kind).toBe(2);
    expect(clear.message.img_url).toMatch(/\?exp=\d+&sig=/);
    expect((await t.app.inject({ url: clear.message.img_url! })).statusCode).toBe(200);
  });
});

describe('the gallery never sends a private picture twice to a user', () => {
  it('sends each private picture once (across chats), never a public one, then says kindly she has none left, free', async () => {
    const { bot, publicKeys, privateKeys } = await character(3);
    const free = await createUser(t.app, t.database.db);
    await grantDesires(t.database.db, free.user.id, 20);
    const first = await createChat(t.database.db, { userId: free.user.id, botId: bot.id });
    const second = await createChat(t.database.db, { userId: free.user.id, botId: bot.id });
    const ids = (await t.database.db.select().from(botPictures).where(eq(botPictures.botId, bot.id))).reduce(
      (map, row) => map.set(row.id, row.mediaKey),
      new Map<string, string>(),
    );
    const sent: string[] = [];
    for (const chat of [first, first, second]) {
      const { message } = await ask(free.auth, chat.id);
      expect(message.kind).toBe(3);
      const [row] = await t.database.db.select().from(messages).where(eq(messages.id, message.id));
      sent.push(ids.get(/-([0-9a-f-]{36})\.webp$/.exec(row!.originalKey!)![1]!)!);
    }
    expect(new Set(sent)).toEqual(new Set(privateKeys));
    expect(sent.some((key) => publicKeys.includes(key) || key === bot.avatarKey)).toBe(false);

    const { events, message } = await ask(free.auth, second.id, 'another photo!');
    expect(events.map((e) => e.event)).toEqual(['user_message', 'bot_message']);
    expect(message).toMatchObject({ role: 'bot', kind: 1, state: 'done', img_url: null });
    expect(message.text).toBe(translate('en', 'pictures.none_left'));
    expect(await balanceOf(t.database.db, free.user.id)).toBe(20);
    // Another user still gets them.
    const other = await createUser(t.app, t.database.db);
    const otherChat = await createChat(t.database.db, { userId: other.user.id, botId: bot.id });
    expect((await ask(other.auth, otherChat.id)).message.kind).toBe(3);
  });

  it('never sends the same picture to two requests of a user at once', async () => {
    const { bot } = await character(2);
    const premium = await createUser(t.app, t.database.db);
    await createPremium(t.database.db, premium.user.id);
    const chat = await createChat(t.database.db, { userId: premium.user.id, botId: bot.id });
    const asks = await Promise.all(
      [0, 1].map(async () => {
        const question = await createMessage(t.database.db, chat, { text: 'pic?' });
        return t.app.pictures.reply({
          chatId: chat.id,
          userId: premium.user.id,
          botId: bot.id,
          replyTo: question.id,
          locale: 'en',
        });
      }),
    );
    const rows = await Promise.all(
      asks.map(async (id) => (await t.database.db.select().from(messages).where(eq(messages.id, id)))[0]!),
    );
    expect(rows.map((row) => row.kind)).toEqual([2, 2]);
    expect(new Set(rows.map((row) => row.mediaKey)).size).toBe(2);
  });

  it('a character without private pictures never sends her avatar or page pictures: she says so, in each language', async () => {
    const { bot } = await character(0);
    const user = await createUser(t.app, t.database.db);
    const chat = await createChat(t.database.db, { userId: user.user.id, botId: bot.id });
    const texts = new Set<string>();
    for (const locale of LOCALES) {
      const question = await createMessage(t.database.db, chat, { text: 'pic?' });
      const id = await t.app.pictures.reply({
        chatId: chat.id,
        userId: user.user.id,
        botId: bot.id,
        replyTo: question.id,
        locale,
      });
      const [row] = await t.database.db.select().from(messages).where(eq(messages.id, id));
      expect(row).toMatchObject({ kind: 1, mediaKey: null, originalKey: null });
      expect(row!.text).toBe(translate(locale, 'pictures.none_to_send'));
      expect(row!.text).not.toBe('pictures.none_to_send');
      expect(translate(locale, 'pictures.none_left')).not.toBe('pictures.none_left');
      texts.add(row!.text);
    }
    expect(texts.size).toBe(LOCALES.length);
  });
});
