import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { TAKEDOWN_REFERENCE_PATTERN } from '@reverie/shared';
import {
  auditLog,
  botPictures,
  bots,
  imageTransforms,
  mailOutbox,
  messages,
  takedownRequests,
} from '../../db/schema.js';
import { createMediaStorage } from '../../providers/storage/index.js';
import type { MediaStorage } from '../../providers/storage/storage.js';
import { createTestApp, testConfig, type TestApp } from '../../../test/helpers.js';
import type { MailMessage } from '../../providers/mail/index.js';
import { getEdition } from '@reverie/shared';
import { TakedownService } from './takedown.service.js';
import { createBot, createChat, createMessage, createUser } from '../../../test/factories.js';

const SITE = 'http://localhost:3000';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-takedown-'));
let t: TestApp;
let storage: MediaStorage;
let admin: Awaited<ReturnType<typeof createUser>>;
let user: Awaited<ReturnType<typeof createUser>>;

const PNG = Buffer.from('89504e470d0a1a0a', 'hex');

beforeAll(async () => {
  storage = createMediaStorage(testConfig({ DATA_DIR: dataDir }));
  t = await createTestApp({
    env: { DATA_DIR: dataDir, TAKEDOWN_PER_IP_PER_HOUR: '1000', TAKEDOWN_PER_EMAIL_PER_DAY: '1000' },
    storage,
  });
  admin = await createUser(t.app, t.database.db, { role: 'admin' });
  user = await createUser(t.app, t.database.db);
});

let n = 0;
const reporter = () => `reporter${Date.now()}_${n++}@example.test`;
const valid = (overrides: Record<string, unknown> = {}) => ({
  email: reporter(),
  urls: [`${SITE}/some-character`],
  description: 'This picture shows me and was published without my consent.',
  signature: 'Jane Doe',
  statement: true,
  ...overrides,
});

/** Files a takedown request for `url`, then an administrator removes every item it resolved to. */
async function fileAndRemove(url: string) {
  const created = await t.app.inject({ method: 'POST', url: '/api/takedown', payload: valid({ urls: [url] }) });
  expect(created.statusCode, created.body).toBe(201);
  const { reference } = created.json() as { reference: string };
  const [request] = await t.database.db
    .select()
    .from(takedownRequests)
    .where(eq(takedownRequests.reference, reference));
  const detail = await t.app.inject({ method: 'GET', url: `/api/admin/takedown/${request!.id}`, headers: admin.auth });
  const items = (detail.json() as { items: { input: string }[] }).items.map((i) => i.input);
  const removed = await t.app.inject({
    method: 'POST',
    url: `/api/admin/takedown/${request!.id}/remove`,
    headers: admin.auth,
    payload: { items, note: 'Removed.' },
  });
  expect(removed.statusCode, removed.body).toBe(200);
}

async function mailsTo(to: string) {
  return t.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to)).orderBy(mailOutbox.id);
}

const put = (key: string) => storage.put(key, PNG, 'image/png');

describe('POST /api/takedown', () => {
  it('answers 201 with a reference, stores the request and e-mails the acknowledgement in its language', async () => {
    const body = valid({ message_ids: ['0b9a6b1e-5a4f-4c59-9f5e-0c2a7e1d3b44'] });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/takedown',
      headers: { 'accept-language': 'de' },
      payload: body,
    });
    expect(res.statusCode).toBe(201);
    const { reference } = res.json() as { reference: string };
    expect(reference).toMatch(TAKEDOWN_REFERENCE_PATTERN);
    const [row] = await t.database.db.select().from(takedownRequests).where(eq(takedownRequests.reference, reference));
    expect(row).toMatchObject({
      email: body.email,
      status: 'open',
      locale: 'de',
      signature: 'Jane Doe',
      items: [`${SITE}/some-character`, '0b9a6b1e-5a4f-4c59-9f5e-0c2a7e1d3b44'],
    });
    const mails = await mailsTo(body.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.kind).toBe('takedown_received');
    expect(mails[0]!.subject).toContain(reference);
    expect(mails[0]!.subject).toContain('Antrag');
    expect(mails[0]!.text).toContain('48');
  });

  it('hands the acknowledgement to the mail queue before answering (a kill -9 after the 201 cannot lose it)', async () => {
    let release: (() => void) | undefined;
    const handed: MailMessage[] = [];
    const mail = {
      name: 'slow-queue',
      send: (message: MailMessage) =>
        new Promise<void>((resolve) => {
          release = () => {
            handed.push(message);
            resolve();
          };
        }),
    };
    const service = new TakedownService({
      db: t.database.db,
      mail,
      edition: getEdition('Reverie'),
      publicUrl: SITE,
      log: t.app.log,
    });
    let answered = false;
    const creating = service.create(valid() as never, 'en').then((created) => {
      answered = true;
      return created;
    });
    await vi.waitFor(() => expect(release).toBeDefined());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBe(false);
    release!();
    const { reference } = await creating;
    expect(handed).toHaveLength(1);
    expect(handed[0]!.subject).toContain(reference);
  });

  it('is open to guests and to signed-in users alike', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/takedown', headers: user.auth, payload: valid() });
    expect(res.statusCode).toBe(201);
  });

  it.each([
    ['a bad e-mail', { email: 'not-an-email' }, 'email'],
    ['no item', { urls: [], message_ids: [] }, 'urls'],
    ['a link to another site', { urls: ['https://elsewhere.example/some-character'] }, 'urls.0'],
    ['a link to no content of this site', { urls: [`${SITE}/settings`] }, 'urls.0'],
    ['a message id that is not a UUID', { urls: [], message_ids: ['12345'] }, 'message_ids.0'],
    ['no statement', { statement: false }, 'statement'],
    ['no signature', { signature: '  ' }, 'signature'],
    ['no description', { description: '' }, 'description'],
  ])('refuses %s with a field error (400)', async (_name, overrides, field) => {
    const body = valid(overrides);
    const res = await t.app.inject({ method: 'POST', url: '/api/takedown', payload: body });
    expect(res.statusCode).toBe(400);
    const json = res.json() as { code: string; errors: Record<string, string[]> };
    expect(json.code).toBe('validation_error');
    expect(Object.keys(json.errors)).toContain(field);
    expect(json.errors[field]![0]).toBeTruthy();
    expect(await mailsTo(body.email as string)).toHaveLength(0);
  });

  it('limits requests per address and per reporter e-mail (429)', async () => {
    const limited = await createTestApp({
      env: { DATA_DIR: dataDir, TAKEDOWN_PER_IP_PER_HOUR: '3', TAKEDOWN_PER_EMAIL_PER_DAY: '2' },
    });
    const email = reporter();
    const from = (ip: string, body: Record<string, unknown>) =>
      limited.app.inject({ method: 'POST', url: '/api/takedown', remoteAddress: ip, payload: body });
    // Per e-mail: the third request to one address is refused, whatever the sender's address.
    expect((await from('10.0.0.1', valid({ email }))).statusCode).toBe(201);
    expect((await from('10.0.0.2', valid({ email }))).statusCode).toBe(201);
    const byEmail = await from('10.0.0.3', valid({ email }));
    expect(byEmail.statusCode).toBe(429);
    expect(byEmail.headers['retry-after']).toBeDefined();
    // Per address: the fourth request from one address is refused.
    for (let i = 0; i < 3; i++) expect((await from('10.0.0.9', valid())).statusCode).toBe(201);
    expect((await from('10.0.0.9', valid())).statusCode).toBe(429);
  });
});

describe('the console: /api/admin/takedown', () => {
  it('401 for a guest and 403 for a user on every route', async () => {
    const id = '0b9a6b1e-5a4f-4c59-9f5e-0c2a7e1d3b44';
    const routes = [
      ['GET', '/api/admin/takedown'],
      ['GET', '/api/admin/takedown/count'],
      ['GET', `/api/admin/takedown/${id}`],
      ['POST', `/api/admin/takedown/${id}/remove`],
      ['POST', `/api/admin/takedown/${id}/reject`],
    ] as const;
    for (const [method, url] of routes) {
      expect((await t.app.inject({ method, url, payload: method === 'POST' ? {} : undefined })).statusCode).toBe(401);
      expect(
        (await t.app.inject({ method, url, headers: user.auth, payload: method === 'POST' ? {} : undefined }))
          .statusCode,
      ).toBe(403);
    }
  });

  it('removes the content everywhere it is stored, tells the reporter and records it in the audit log', async () => {
    const db = t.database.db;
    // A character (avatar, gallery, a resized copy) with a chat whose picture is the user's file.
    const character = await createBot(db, { authorId: user.user.id, visibility: 'public' });
    const avatar = `bots/${character.id}/avatar.png`;
    await db.update(bots).set({ avatarKey: avatar }).where(eq(bots.id, character.id));
    await db.insert(botPictures).values({ botId: character.id, mediaKey: `bots/${character.id}/g1.png` });
    const chatOfCharacter = await createChat(db, { userId: user.user.id, botId: character.id });
    const chatPicture = `chats/${user.user.id}/c1.webp`;
    await createMessage(db, chatOfCharacter, { role: 'bot', kind: 2, mediaKey: chatPicture });
    // Another character keeps living, but loses one gallery picture named by its media URL.
    const other = await createBot(db);
    const otherPicture = `bots/${other.id}/g2.png`;
    await db.insert(botPictures).values({ botId: other.id, mediaKey: otherPicture });
    // A message with a blurred picture (preview + private original) and a voice file.
    const chat = await createChat(db, { userId: user.user.id, botId: other.id });
    const preview = `chats/${user.user.id}/p1.webp`;
    const original = `originals/${user.user.id}/p1.png`;
    const voice = `chats/${user.user.id}/v1.mp3`;
    const message = await createMessage(db, chat, {
      role: 'bot',
      kind: 2,
      mediaKey: preview,
      originalKey: original,
      audioKey: voice,
    });
    const files = [
      avatar,
      `${avatar}.w256.webp`,
      `bots/${character.id}/g1.png`,
      chatPicture,
      otherPicture,
      `${otherPicture}.w512.webp`,
      preview,
      original,
      voice,
    ];
    for (const key of files) await put(key);

    const email = reporter();
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/takedown',
      payload: valid({
        email,
        urls: [`${SITE}/${character.slug}`, `${SITE}/api/media/${otherPicture}.w256.webp`],
        message_ids: [message.id],
      }),
    });
    expect(created.statusCode).toBe(201);
    const { reference } = created.json() as { reference: string };
    const [request] = await db.select().from(takedownRequests).where(eq(takedownRequests.reference, reference));

    const count = await t.app.inject({ method: 'GET', url: '/api/admin/takedown/count', headers: admin.auth });
    expect((count.json() as { count: number }).count).toBeGreaterThanOrEqual(1);
    const list = await t.app.inject({ method: 'GET', url: '/api/admin/takedown?order=newest', headers: admin.auth });
    expect(list.statusCode).toBe(200);
    const listed = (list.json() as { items: { id: string; overdue: boolean }[] }).items.find(
      (i) => i.id === request!.id,
    );
    expect(listed).toMatchObject({ overdue: false });

    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/admin/takedown/${request!.id}`,
      headers: admin.auth,
    });
    expect(detail.statusCode).toBe(200);
    const items = (detail.json() as { items: { kind: string; found: boolean; input: string }[] }).items;
    expect(items.map((i) => [i.kind, i.found])).toEqual([
      ['character', true],
      ['media', true],
      ['message', true],
    ]);

    const removed = await t.app.inject({
      method: 'POST',
      url: `/api/admin/takedown/${request!.id}/remove`,
      headers: admin.auth,
      payload: { items: items.map((i) => i.input), note: 'Removed as asked.' },
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ status: 'removed', resolution: 'Removed as asked.' });

    // Rows: the character and its chats are gone, the message is gone, the other character
    // stays without the picture.
    expect(await db.select().from(bots).where(eq(bots.id, character.id))).toHaveLength(0);
    expect(await db.select().from(messages).where(eq(messages.id, message.id))).toHaveLength(0);
    expect(await db.select().from(bots).where(eq(bots.id, other.id))).toHaveLength(1);
    expect(
      await db
        .select()
        .from(botPictures)
        .where(and(eq(botPictures.botId, other.id), eq(botPictures.mediaKey, otherPicture))),
    ).toHaveLength(0);
    // Files: every one, with the resized copies.
    for (const key of files) expect(await storage.exists(key), key).toBe(false);

    // The reporter is told; the audit log has the removal.
    const mails = await mailsTo(email);
    expect(mails.map((m) => m.kind)).toEqual(['takedown_received', 'takedown_removed']);
    expect(mails[1]!.subject).toContain(reference);
    expect(mails[1]!.text).toContain('Removed as asked.');
    const audit = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'takedown'), eq(auditLog.targetId, request!.id)));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'takedown.remove', actorId: admin.user.id, reason: 'Removed as asked.' });
    expect(audit[0]!.after).toMatchObject({ status: 'removed', characters: [character.id], messages: [message.id] });

    // Closed: a second removal is refused.
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/admin/takedown/${request!.id}/remove`,
      headers: admin.auth,
      payload: { items: items.map((i) => i.input) },
    });
    expect(again.statusCode).toBe(409);
  });

  it('reads what it removes in its transaction: a message added to the character meanwhile never keeps a file', async () => {
    const db = t.database.db;
    const character = await createBot(db, { authorId: user.user.id, visibility: 'public' });
    const chat = await createChat(db, { userId: user.user.id, botId: character.id });
    const loose = `bots/${randomUUID()}/loose.png`;
    const late = `chats/${user.user.id}/late-${randomUUID().slice(0, 8)}.webp`;
    await put(loose);
    await put(late);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/takedown',
      payload: valid({ urls: [`${SITE}/${character.slug}`, `${SITE}/api/media/${loose}`] }),
    });
    const { reference } = created.json() as { reference: string };
    const [request] = await db.select().from(takedownRequests).where(eq(takedownRequests.reference, reference));
    // While the removal reads its plan (it asks the storage whether the loose file exists), a
    // picture is sent in the character's chat.
    const exists = storage.exists.bind(storage);
    let adding: Promise<boolean> | null = null;
    storage.exists = async (key: string) => {
      if (key === loose && !adding) {
        adding = createMessage(db, chat, { role: 'bot', text: 'a late picture', mediaKey: late }).then(
          () => true,
          () => false,
        );
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      return exists(key);
    };
    try {
      const removed = await t.app.inject({
        method: 'POST',
        url: `/api/admin/takedown/${request!.id}/remove`,
        headers: admin.auth,
        payload: { items: request!.items, note: '' },
      });
      expect(removed.statusCode, removed.body).toBe(200);
    } finally {
      storage.exists = exists;
    }
    expect(adding).not.toBeNull();
    const added = await adding!;
    // Either the message was refused (its chat was locked, then gone), or it was taken down with
    // its file: never a file of the removed character's chats left behind.
    expect(await db.select().from(messages).where(eq(messages.mediaKey, late))).toHaveLength(0);
    if (added) expect(await storage.exists(late)).toBe(false);
    else expect(added).toBe(false);
  });

  it("an explicit picture named by its blurred copy's URL goes with the original and every copy", async () => {
    const db = t.database.db;
    const character = await createBot(db, { authorId: user.user.id, visibility: 'public' });
    const picture = `bots/${character.id}/g-explicit.webp`;
    await db.insert(botPictures).values({ botId: character.id, mediaKey: picture, explicit: true });
    const files = [picture, `${picture}.w256.webp`, `${picture}.blurred.webp`, `${picture}.blurred.webp.w512.webp`];
    for (const key of files) await put(key);
    await fileAndRemove(`${SITE}/api/media/${picture}.blurred.webp.w256.webp`);
    expect(await db.select().from(botPictures).where(eq(botPictures.mediaKey, picture))).toEqual([]);
    for (const key of files) expect(await storage.exists(key), key).toBe(false);
  });

  it('a style transform named by its picture goes with both its files', async () => {
    const db = t.database.db;
    const transformId = randomUUID();
    const original = `transforms/${user.user.id}/${transformId}-original-a1.webp`;
    const result = `transforms/${user.user.id}/${transformId}-result-b2.webp`;
    const [transform] = await db
      .insert(imageTransforms)
      .values({
        id: transformId,
        userId: user.user.id,
        style: 'anime',
        state: 'ready',
        originalKey: original,
        resultKey: result,
      })
      .returning();
    await put(original);
    await put(result);
    await fileAndRemove(`${SITE}/api/media/${result}?exp=1&sig=x`);
    expect(await db.select().from(imageTransforms).where(eq(imageTransforms.id, transform!.id))).toEqual([]);
    expect(await storage.exists(original)).toBe(false);
    expect(await storage.exists(result)).toBe(false);
  });

  it('rejects with a reason e-mailed to the reporter, audit-logged', async () => {
    const email = reporter();
    const created = await t.app.inject({ method: 'POST', url: '/api/takedown', payload: valid({ email }) });
    const { reference } = created.json() as { reference: string };
    const [request] = await t.database.db
      .select()
      .from(takedownRequests)
      .where(eq(takedownRequests.reference, reference));
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/admin/takedown/${request!.id}/reject`,
      headers: admin.auth,
      payload: { reason: 'The page shows a drawn character, not a real person.' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'rejected' });
    const mails = await mailsTo(email);
    expect(mails.map((m) => m.kind)).toEqual(['takedown_received', 'takedown_rejected']);
    expect(mails[1]!.text).toContain('not a real person');
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'takedown.reject'), eq(auditLog.targetId, request!.id)));
    expect(audit).toBeDefined();
  });

  it('flags a request still open after 48 hours as overdue', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/api/takedown', payload: valid() });
    const { reference } = created.json() as { reference: string };
    await t.database.db
      .update(takedownRequests)
      .set({ createdAt: sql`now() - interval '49 hours'` })
      .where(eq(takedownRequests.reference, reference));
    const list = await t.app.inject({ method: 'GET', url: '/api/admin/takedown', headers: admin.auth });
    const items = (list.json() as { items: { reference: string; overdue: boolean }[] }).items;
    expect(items.find((i) => i.reference === reference)).toMatchObject({ overdue: true });
    expect(items.filter((i) => i.reference !== reference).every((i) => !i.overdue)).toBe(true);
    // Oldest first by default: the overdue one leads.
    expect(items[0]!.reference).toBe(reference);
    const count = await t.app.inject({ method: 'GET', url: '/api/admin/takedown/count', headers: admin.auth });
    expect(count.json()).toMatchObject({ overdue: 1 });
  });
});
