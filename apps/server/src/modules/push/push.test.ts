import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushConfig, PushPayload } from '@reverie/shared';
import { botPictures, pushSubscriptions, users } from '../../db/schema.js';
import { createBot, createChat, createMessage, createUser } from '../../../test/factories.js';
import { startFakePushService, type FakePushService } from '../../../test/fake-push-service.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { firstWords } from './push.presenter.js';
import type { PushNotice } from './push.service.js';
import { resolveVapidKeys } from './vapid.js';

/**
 * Web Push against a local push service that speaks the protocol (test/fake-push-service.ts):
 * it checks the VAPID JWT and decrypts the aes128gcm body with the device's keys, so what is
 * asserted here is what a phone would show.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-push-'));
let t: TestApp;
let service: FakePushService;

beforeAll(async () => {
  service = await startFakePushService();
  t = await createTestApp({
    env: { DATA_DIR: dataDir, PUBLIC_URL: 'https://reverie.example', PICTURE_NOTICE_DELAY_S: '3' },
    pushAgent: service.agent,
  });
});
afterAll(async () => {
  await service?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function subscribedUser() {
  const user = await createUser(t.app, t.database.db);
  const device = service.device();
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/push/subscriptions',
    headers: user.auth,
    payload: device.subscription,
  });
  expect(res.statusCode, res.body).toBe(204);
  const bot = await createBot(t.database.db, { name: 'Mia', slug: `mia-${device.id.toLowerCase().replace(/_/g, '')}` });
  const chat = await createChat(t.database.db, { userId: user.user.id, botId: bot.id });
  return { ...user, device, bot, chat };
}

const notice = (s: Awaited<ReturnType<typeof subscribedUser>>, overrides: Partial<PushNotice> = {}): PushNotice => ({
  chatId: s.chat.id,
  character: { name: 'Mia', slug: s.bot.slug, picture: '/api/media/bots/mia.webp' },
  text: 'I kept thinking about the lighthouse you told me about yesterday — did you ever go back there?',
  kind: 'message',
  explicit: false,
  reason: 'proactive',
  ...overrides,
});

async function pushesTo(deviceId: string): Promise<PushPayload[]> {
  await t.app.jobs.idle(['push-delivery']);
  return service.received.filter((r) => r.device === deviceId).map((r) => r.payload as PushPayload);
}

describe('subscriptions', () => {
  it('needs a signed-in user and a valid subscription', async () => {
    const device = service.device();
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/push/subscriptions',
      payload: device.subscription,
    });
    expect(anonymous.statusCode).toBe(401);
    const { auth } = await createUser(t.app, t.database.db);
    for (const payload of [
      {},
      { endpoint: 'not a url', keys: device.subscription.keys },
      { endpoint: device.subscription.endpoint, keys: { p256dh: 'has spaces', auth: 'x' } },
      { endpoint: `https://x.example/${'a'.repeat(2100)}`, keys: device.subscription.keys },
    ]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/push/subscriptions', headers: auth, payload });
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_error' });
    }
  });

  it('answers the VAPID public key and the devices; unsubscribing is per user', async () => {
    const s = await subscribedUser();
    const config = (await t.app.inject({ method: 'GET', url: '/api/push/config', headers: s.auth })).json<PushConfig>();
    expect(config).toMatchObject({ devices: 1, preview: true, replies: false });
    expect(Buffer.from(config.public_key, 'base64url')).toHaveLength(65);
    const other = await createUser(t.app, t.database.db);
    const body = { endpoint: s.device.subscription.endpoint };
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/api/push/subscriptions', headers: other.auth, payload: body }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/api/push/subscriptions', headers: s.auth, payload: body }))
        .statusCode,
    ).toBe(204);
    expect(await t.app.push.sendPush(s.user.id, notice(s))).toBe(0);
  });
});

describe('deliveries', () => {
  it('a proactive message: her name, picture and first words, signed with the VAPID key; tapping opens the chat', async () => {
    const s = await subscribedUser();
    expect(await t.app.push.sendPush(s.user.id, notice(s))).toBe(1);
    const [payload] = await pushesTo(s.device.id);
    expect(payload).toEqual({
      title: 'Mia',
      body: firstWords(notice(s).text),
      icon: '/api/media/bots/mia.webp',
      url: `/${s.bot.slug}?chat=${s.chat.id}`,
      tag: `chat-${s.chat.id}`,
      chat_id: s.chat.id,
      unread: 0,
      off_label: 'Turn off notifications',
    });
    expect(payload!.body.length).toBeLessThanOrEqual(91);
    expect(payload!.body.endsWith('…')).toBe(true);
    const push = service.received.find((r) => r.device === s.device.id)!;
    const config = (await t.app.inject({ method: 'GET', url: '/api/push/config', headers: s.auth })).json<PushConfig>();
    expect(push.vapidKey).toBe(config.public_key);
    expect(push.claims.sub).toBe('https://reverie.example');
    expect(Number(push.headers.ttl)).toBeGreaterThan(0);
  });

  it("never an explicit text or picture: a fixed line instead, in the user's language", async () => {
    const s = await subscribedUser();
    await t.database.db.update(users).set({ locale: 'de' }).where(eq(users.id, s.user.id));
    const secret = 'SECRET-EXPLICIT-WORDS';
    await t.app.push.sendPush(s.user.id, notice(s, { text: `${secret} more`, explicit: true }));
    await t.app.push.sendPush(s.user.id, notice(s, { text: secret, kind: 'picture', explicit: true }));
    const [explicit, picture] = await pushesTo(s.device.id);
    expect(JSON.stringify([explicit, picture])).not.toContain(secret);
    expect(explicit!.body).toBe('Mia hat dir geschrieben');
    expect(picture!.body).toBe('Mia hat dir ein Bild geschickt');
  });

  it('a hidden preview shows her name only; a finished reply only when the user chose it', async () => {
    const s = await subscribedUser();
    expect(await t.app.push.sendPush(s.user.id, notice(s, { reason: 'reply' }))).toBe(0);
    const patched = await t.app.inject({
      method: 'PATCH',
      url: '/api/push/preferences',
      headers: s.auth,
      payload: { preview: false, replies: true },
    });
    expect(patched.json()).toMatchObject({ preview: false, replies: true });
    await createMessage(t.database.db, s.chat, { role: 'bot', text: 'unread one' });
    expect(await t.app.push.sendPush(s.user.id, notice(s, { reason: 'reply' }))).toBe(1);
    const [payload] = await pushesTo(s.device.id);
    expect(payload).toMatchObject({ title: 'Mia', body: 'Mia wrote to you', icon: null, unread: 1 });
    expect(JSON.stringify(payload)).not.toContain('lighthouse');
  });

  it('a subscription the push service no longer knows (410, 404) is removed', async () => {
    const s = await subscribedUser();
    service.answer(s.device.id, 410);
    await t.app.push.sendPush(s.user.id, notice(s));
    await t.app.jobs.idle(['push-delivery']);
    expect(service.refused).toContainEqual(expect.objectContaining({ device: s.device.id, status: 410 }));
    const rows = await t.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, s.user.id));
    expect(rows).toEqual([]);
    expect(await t.app.push.sendPush(s.user.id, notice(s))).toBe(0);
  });
});

/**
 * Issue 31: "Mia sent you a picture" when a picture the user asked for is finished while they
 * are not looking at the chat — still unread `PICTURE_NOTICE_DELAY_S` after it landed (an open,
 * visible chat marks it read as it arrives) — and only when they chose to be told.
 */
describe('a finished chat picture', () => {
  async function askForPicture(options: { replies: boolean; looking: boolean }) {
    const s = await subscribedUser();
    if (options.replies) {
      const res = await t.app.inject({
        method: 'PATCH',
        url: '/api/push/preferences',
        headers: s.auth,
        payload: { replies: true },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    // A private gallery picture: what she sends in chat when no image provider is configured.
    const key = `bots/${s.bot.id}/gallery-0.png`;
    fs.mkdirSync(path.join(dataDir, 'media', 'bots', s.bot.id), { recursive: true });
    const png = await sharp({ create: { width: 64, height: 96, channels: 3, background: '#c06' } })
      .png()
      .toBuffer();
    fs.writeFileSync(path.join(dataDir, 'media', ...key.split('/')), png);
    await t.database.db
      .insert(botPictures)
      .values({ botId: s.bot.id, mediaKey: key, position: 0, visibility: 'private' });
    const sent = await t.app.inject({
      method: 'POST',
      url: `/api/chat/${s.chat.id}/messages`,
      headers: s.auth,
      payload: { client_id: randomUUID(), text: 'Send me a photo of you' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.body).toContain('event: image');
    // The open chat, visible, marks it read as the picture arrives (apps/web useMarkRead).
    if (options.looking) {
      const read = await t.app.inject({ method: 'POST', url: `/api/chat/${s.chat.id}/read`, headers: s.auth });
      expect(read.statusCode, read.body).toBe(200);
    }
    await t.app.jobs.idle(['chat-picture-notice']);
    return { s, pushes: await pushesTo(s.device.id) };
  }

  it('tells an away user who chose it, without showing the picture on the lock screen', async () => {
    const { s, pushes } = await askForPicture({ replies: true, looking: false });
    expect(pushes).toHaveLength(1);
    expect(pushes[0]).toMatchObject({
      title: 'Mia',
      body: 'Mia sent you a picture',
      url: `/${s.bot.slug}?chat=${s.chat.id}`,
      tag: `chat-${s.chat.id}`,
      unread: 1,
    });
    // The icon is her public avatar at most, never the picture (blurred or not) she sent.
    expect(JSON.stringify(pushes[0])).not.toContain(`chats/${s.user.id}`);
    expect(JSON.stringify(pushes[0])).not.toContain('originals/');
  });

  it('says nothing while the user is looking at the chat', async () => {
    const { pushes } = await askForPicture({ replies: true, looking: true });
    expect(pushes).toEqual([]);
  });

  it('says nothing to a user who did not choose to be told of finished replies and pictures', async () => {
    const { pushes } = await askForPicture({ replies: false, looking: false });
    expect(pushes).toEqual([]);
  });
});

describe('VAPID keys', () => {
  it('are generated once into DATA_DIR, or taken from the environment (both halves)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-vapid-'));
    const first = resolveVapidKeys({}, dir);
    expect(resolveVapidKeys({}, dir)).toEqual(first);
    expect(fs.statSync(path.join(dir, 'vapid.json')).mode & 0o777).toBe(0o600);
    expect(resolveVapidKeys({ publicKey: 'pub', privateKey: 'priv' }, dir)).toEqual({
      publicKey: 'pub',
      privateKey: 'priv',
    });
    expect(() => resolveVapidKeys({ publicKey: 'pub' }, dir)).toThrow(/together/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
