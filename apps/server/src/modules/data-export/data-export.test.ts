import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataExport, DataExportStatus, UserEvent } from '@reverie/shared';
import { dataExports, ledgerEntries, mailOutbox, memories, memoryRevisions, messages } from '../../db/schema.js';
import { createBot, createChat, createMessage, createUser, deleteAccount } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import type { MediaStorage } from '../../providers/storage/storage.js';
import { DATA_EXPORT_QUEUE } from './index.js';
import { ZipFileWriter } from './archive.js';
import { MESSAGE_PAGE, writeArchive } from './contents.js';

/**
 * "Download my data" through the routes and the job (PGlite by default, PostgreSQL with
 * TEST_DB=postgres): the archive's contents, another user's data absent, the signed link and
 * its expiry, the daily and per-address limits.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-export-'));
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { DATA_DIR: dataDir, PUBLIC_URL: 'https://reverie.example' } });
});
afterAll(async () => {
  await t?.app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The app's media storage (local files under DATA_DIR). */
const storage = () => (t.app.dataExport as unknown as { deps: { storage: MediaStorage } }).deps.storage;

let ip = 10;
/** Each test's requests come from an address of their own (the per-address limit is tested apart). */
const nextAddress = () => `198.51.100.${ip++}`;

async function ask(auth: { authorization: string }, remoteAddress = nextAddress()) {
  return t.app.inject({ method: 'POST', url: '/api/profile/data_export', headers: auth, remoteAddress });
}

async function status(auth: { authorization: string }): Promise<DataExportStatus> {
  const res = await t.app.inject({ method: 'GET', url: '/api/profile/data_export', headers: auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<DataExportStatus>();
}

/** A user with a bit of everything: a character and a persona, a chat and its branch, a picture, memories, the ledger. */
async function richUser() {
  const db = t.database.db;
  const owner = await createUser(t.app, db, { isEmailConfirmed: true, locale: 'en' });
  const mine = await createBot(db, { name: 'Lumi', authorId: owner.user.id, visibility: 'private' });
  const persona = await createBot(db, { name: 'Captain Rowan', kind: 'persona', authorId: owner.user.id });
  const mia = await createBot(db, { name: 'Mia' });
  const chat = await createChat(db, { userId: owner.user.id, botId: mia.id, title: 'Lighthouse trip' });
  const first = await createMessage(db, chat, { text: 'I finally went back to the lighthouse at Ouessant.' });
  const reply = await createMessage(db, chat, {
    role: 'bot',
    text: 'Tell me everything about the stairs!',
    replyTo: first.id,
  });
  await createMessage(db, chat, {
    role: 'bot',
    text: 'An unseen alternative reply.',
    replyTo: first.id,
    altIndex: 1,
    selected: false,
  });
  const pictureKey = `chats/${owner.user.id}/0123456789abcdef0123456789abcdef.webp`;
  await storage().put(pictureKey, Buffer.from('RIFF-picture-bytes'), 'image/webp');
  const originalKey = `originals/${owner.user.id}/fedcba9876543210fedcba9876543210.webp`;
  await storage().put(originalKey, Buffer.from('the-private-original'), 'image/webp');
  await createMessage(db, chat, { role: 'bot', kind: 3, text: 'Just for you', mediaKey: pictureKey, originalKey });
  const branch = await createChat(db, {
    userId: owner.user.id,
    botId: mia.id,
    parentChatId: chat.id,
    rootChatId: chat.id,
    forkMessageId: reply.id,
  });
  await createMessage(db, branch, { text: 'In this branch I never went.' });
  const [memory] = await db
    .insert(memories)
    .values({
      userId: owner.user.id,
      botId: mia.id,
      kind: 'user',
      text: 'Visited the Ouessant lighthouse',
      origin: 'model',
      dedupeKey: `ouessant-${owner.user.id}`,
    })
    .returning();
  await db.insert(memoryRevisions).values([
    {
      memoryId: memory!.id,
      change: 'created',
      origin: 'model',
      kind: 'user',
      text: 'Visited a lighthouse',
      importance: 3,
      pinned: false,
    },
    {
      memoryId: memory!.id,
      change: 'corrected',
      origin: 'user',
      kind: 'user',
      text: 'Visited the Ouessant lighthouse',
      importance: 3,
      pinned: false,
    },
  ]);
  await db
    .insert(ledgerEntries)
    .values({ userId: owner.user.id, amount: 20, reason: 'daily_claim', idempotencyKey: `claim-${owner.user.id}` });
  return { ...owner, mine, persona, mia, chat, branch, pictureKey, originalKey };
}

async function prepared(auth: { authorization: string }): Promise<DataExport> {
  const res = await ask(auth);
  expect(res.statusCode, res.body).toBe(202);
  expect(res.json<DataExport>().state).toBe('preparing');
  await t.app.jobs.idle([DATA_EXPORT_QUEUE]);
  const latest = (await status(auth)).export!;
  expect(latest.state).toBe('ready');
  return latest;
}

async function download(url: string) {
  return t.app.inject({ method: 'GET', url });
}

describe('download my data', () => {
  it('needs a signed-in user', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/profile/data_export' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/profile/data_export' })).statusCode).toBe(401);
  });

  it('builds a ZIP of everything the user has, and nothing of anyone else', async () => {
    const owner = await richUser();
    // Someone else's chat with the same character, and their own archive's row.
    const other = await createUser(t.app, t.database.db);
    const otherChat = await createChat(t.database.db, { userId: other.user.id, botId: owner.chat.botId });
    await createMessage(t.database.db, otherChat, { text: 'SECRET-OF-THE-OTHER-USER' });
    // A lorebook each: the owner's is in the archive as World Info, the other's is not.
    for (const [auth, name, content] of [
      [owner.auth, 'Harbour lore', 'LORE: the harbour has a green light.'],
      [other.auth, 'Other lore', 'SECRET-LORE-OF-THE-OTHER-USER'],
    ] as const) {
      const book = await t.app.inject({ method: 'POST', url: '/api/lorebooks', headers: auth, payload: { name } });
      expect(book.statusCode, book.body).toBe(201);
      const entry = await t.app.inject({
        method: 'POST',
        url: `/api/lorebooks/${book.json<{ id: string }>().id}/entries`,
        headers: auth,
        payload: { keys: ['harbour'], content },
      });
      expect(entry.statusCode).toBe(201);
    }
    const events: UserEvent[] = [];
    const unsubscribe = await t.app.pubsub.subscribe(`user-events:${owner.user.id}`, (m) => events.push(JSON.parse(m)));

    expect((await status(owner.auth)).export).toBeNull();
    const ready = await prepared(owner.auth);
    expect(ready.download_url).toMatch(/^\/api\/profile\/data_export\/[0-9a-f-]{36}\/download\?exp=\d+&sig=/);
    expect(Date.parse(ready.expires_at!) - Date.now()).toBeGreaterThan(71 * 3600_000);
    expect(ready.size).toBeGreaterThan(0);

    const res = await download(ready.download_url!);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="reverie-data-\d{4}-\d{2}-\d{2}\.zip"$/);
    expect(res.headers['cache-control']).toContain('no-store');
    const files = unzipSync(new Uint8Array(res.rawPayload));
    const names = Object.keys(files);
    const text = (name: string) => strFromU8(files[name]!);
    const everything = names.map((n) => (n.startsWith('media/') ? '' : text(n))).join('\n');

    // The account, without secrets.
    const account = JSON.parse(text('account.json'));
    expect(account).toMatchObject({ id: owner.user.id, email: owner.user.email, name: owner.user.name });
    expect(everything).not.toContain('passwordHash');
    expect(everything).not.toContain('!test-only');
    expect(text('README.txt')).toContain(owner.user.name);
    expect(JSON.parse(text('settings.json'))).toHaveProperty('companion');
    // Their character and persona as cards.
    const card = names.find((n) => n.startsWith('characters/'))!;
    expect(JSON.parse(text(card))).toMatchObject({ spec: 'chara_card_v3', data: { name: 'Lumi' } });
    expect(JSON.parse(text(names.find((n) => n.startsWith('personas/'))!)).data.name).toBe('Captain Rowan');
    // Both chats (the branch says where it comes from), every message with alternatives.
    const chatFolders = [...new Set(names.filter((n) => n.startsWith('chats/')).map((n) => n.split('/')[1]))];
    expect(chatFolders).toHaveLength(2);
    const lines = names
      .filter((n) => n.endsWith('messages.jsonl'))
      .flatMap((n) => text(n).trim().split('\n'))
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.text)).toEqual(
      expect.arrayContaining([
        'I finally went back to the lighthouse at Ouessant.',
        'An unseen alternative reply.',
        'In this branch I never went.',
      ]),
    );
    expect(lines.find((l) => l.text === 'An unseen alternative reply.').selected).toBe(false);
    const branchJson = names.find((n) => n.endsWith('chat.json') && JSON.parse(text(n)).parentChatId)!;
    expect(JSON.parse(text(branchJson)).parentChatId).toBe(owner.chat.id);
    const transcript = names
      .filter((n) => n.endsWith('transcript.md'))
      .map(text)
      .join('\n');
    expect(transcript).toContain('Tell me everything about the stairs!');
    expect(transcript).toContain('alternative reply, not shown in the chat');
    // The picture the user sees is there; the blurred picture's private original is not.
    const picture = lines.find((l) => l.kind === 3);
    expect(picture.files).toEqual(['media/0123456789abcdef0123456789abcdef.webp']);
    expect(strFromU8(files['media/0123456789abcdef0123456789abcdef.webp']!)).toBe('RIFF-picture-bytes');
    expect(names).not.toContain('media/fedcba9876543210fedcba9876543210.webp');
    expect(everything).not.toContain('originals/');
    // Memories with their history, the ledger.
    const [memory] = JSON.parse(text('memories.json'));
    expect(memory.text).toBe('Visited the Ouessant lighthouse');
    // Whose memory it is, by name (a memory of a character never chatted with has no chat folder to tell).
    expect(memory.character).toEqual({ id: owner.mia.id, name: 'Mia', slug: owner.mia.slug });
    expect(memory.history.map((h: { change: string }) => h.change)).toEqual(['created', 'corrected']);
    expect(text('billing/ledger.csv')).toMatch(/^created_at,amount,reason,reference\n.*,20,daily_claim,\n$/);
    // Their lorebook, as World Info JSON the import reads back.
    const lore = JSON.parse(text(names.find((n) => n.startsWith('lorebooks/Harbour-lore-'))!));
    expect(lore).toMatchObject({ name: 'Harbour lore', global: false, character: null });
    expect(Object.values(lore.entries)).toEqual([
      expect.objectContaining({ key: ['harbour'], content: 'LORE: the harbour has a green light.' }),
    ]);
    // Nobody else's data.
    expect(everything).not.toContain('SECRET-LORE-OF-THE-OTHER-USER');
    expect(everything).not.toContain('SECRET-OF-THE-OTHER-USER');
    expect(everything).not.toContain(other.user.id);
    expect(everything).not.toContain(other.user.email);

    // Told in the app, and by e-mail with the link (the address is verified).
    expect(events).toContainEqual({ type: 'data_export', state: 'ready' });
    await unsubscribe();
    const [mail] = await t.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.userId, owner.user.id), eq(mailOutbox.kind, 'data_export')));
    expect(mail!.toAddress).toBe(owner.user.email);
    expect(mail!.text).toContain(`https://reverie.example${ready.download_url}`);
  });

  it('sends no e-mail to an unverified address', async () => {
    const owner = await createUser(t.app, t.database.db, { isEmailConfirmed: false });
    await prepared(owner.auth);
    const mails = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.userId, owner.user.id));
    expect(mails).toHaveLength(0);
  });

  it('answers a forged, altered or expired link with 404, and deletes the file when its time is up', async () => {
    const owner = await createUser(t.app, t.database.db);
    const other = await createUser(t.app, t.database.db);
    const ready = await prepared(owner.auth);
    const theirs = await prepared(other.auth);
    const url = new URL(ready.download_url!, 'http://x');
    const sig = url.searchParams.get('sig')!;
    const exp = url.searchParams.get('exp')!;
    const forged = `${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const bad of [
      `${url.pathname}?exp=${exp}&sig=${forged}`,
      `${url.pathname}?exp=${Number(exp) + 3600}&sig=${sig}`,
      // Another user's archive with this user's signature.
      `/api/profile/data_export/${theirs.id}/download?exp=${exp}&sig=${sig}`,
    ]) {
      expect((await download(bad)).statusCode, bad).toBe(404);
    }
    expect((await download(`${url.pathname}?exp=${exp}`)).statusCode).toBe(400);

    // Its time is up: the row's expiry passed, the job deletes the file; the link finds nothing.
    const [row] = await t.database.db.select().from(dataExports).where(eq(dataExports.id, ready.id));
    await t.database.db
      .update(dataExports)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(dataExports.id, ready.id));
    expect((await download(ready.download_url!)).statusCode).toBe(404);
    await t.app.dataExport.expire({ exportId: ready.id });
    expect(await storage().exists(row!.storageKey!)).toBe(false);
    const after = (await status(owner.auth)).export!;
    expect(after).toMatchObject({ state: 'expired', download_url: null, expires_at: null });
  });

  it('gives one archive a day per account; a failed one may be asked again at once', async () => {
    const owner = await createUser(t.app, t.database.db);
    const first = await prepared(owner.auth);
    const again = await ask(owner.auth);
    expect(again.statusCode).toBe(429);
    expect(again.json().code).toBe('rate_limited');
    const retryAfter = Number(again.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(23 * 3600);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    expect(Date.parse((await status(owner.auth)).export!.next_allowed_at)).toBeGreaterThan(Date.now() + 23 * 3600_000);

    // Two at once (two tabs, two replicas): one archive.
    const fresh = await createUser(t.app, t.database.db);
    const both = await Promise.all([ask(fresh.auth), ask(fresh.auth)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([202, 429]);
    await t.app.jobs.idle([DATA_EXPORT_QUEUE]);

    // A failed archive: asked again at once, and the new one replaces it.
    await t.database.db.update(dataExports).set({ state: 'failed' }).where(eq(dataExports.id, first.id));
    const retried = await ask(owner.auth);
    expect(retried.statusCode, retried.body).toBe(202);
    await t.app.jobs.idle([DATA_EXPORT_QUEUE]);
    expect((await status(owner.auth)).export!.state).toBe('ready');
  });

  it('limits the archives asked for from one address', async () => {
    const address = '203.0.113.77';
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) {
      const user = await createUser(t.app, t.database.db);
      codes.push((await ask(user.auth, address)).statusCode);
    }
    expect(codes).toEqual([202, 202, 202, 202, 202, 429]);
    await t.app.jobs.idle([DATA_EXPORT_QUEUE]);
  });

  it('marks an archive that fails for good as failed and tells the app', async () => {
    const owner = await createUser(t.app, t.database.db);
    const events: UserEvent[] = [];
    const unsubscribe = await t.app.pubsub.subscribe(`user-events:${owner.user.id}`, (m) => events.push(JSON.parse(m)));
    const [row] = await t.database.db.insert(dataExports).values({ userId: owner.user.id }).returning();
    await t.app.dataExport.failed({ exportId: row!.id });
    expect((await status(owner.auth)).export).toMatchObject({ state: 'failed', download_url: null });
    expect(events).toContainEqual({ type: 'data_export', state: 'failed' });
    await unsubscribe();
  });

  it('reads a long chat in pages', async () => {
    const owner = await createUser(t.app, t.database.db);
    const bot = await createBot(t.database.db);
    const chat = await createChat(t.database.db, { userId: owner.user.id, botId: bot.id });
    const count = MESSAGE_PAGE * 2 + 7;
    await t.database.db.insert(messages).values(
      Array.from({ length: count }, (_, i) => ({
        chatId: chat.id,
        userId: owner.user.id,
        role: 'user' as const,
        text: `line ${i}`,
      })),
    );
    const ready = await prepared(owner.auth);
    const files = unzipSync(new Uint8Array((await download(ready.download_url!)).rawPayload));
    const jsonl = Object.keys(files).find((n) => n.endsWith('messages.jsonl'))!;
    const lines = strFromU8(files[jsonl]!).trim().split('\n');
    expect(lines).toHaveLength(count);
    expect(JSON.parse(lines[count - 1]!).text).toBe(`line ${count - 1}`);
  });

  it('pages on (seq, id): alternatives sharing a seq, a page ending among them, every message once', async () => {
    // A reply regenerated or rewritten takes its target's place: its alternatives share one `seq`
    // and one `created_at` (docs/chat.md "A reply keeps its place"). Paging on `seq` or
    // `created_at` alone would skip the rest of such a group when a page ends inside it.
    const db = t.database.db;
    const owner = await createUser(t.app, db);
    const bot = await createBot(db);
    const chat = await createChat(db, { userId: owner.user.id, botId: bot.id });
    const start = Date.now() - 3600_000;
    let tick = 0;
    const at = () => new Date(start + 1000 * tick++);
    /** A user message and a reply with `alternatives` more in its place (the last one shown). */
    async function exchange(n: number, alternatives: number) {
      const said = await createMessage(db, chat, { text: `user ${n}`, createdAt: at() });
      const reply = await createMessage(db, chat, {
        role: 'bot',
        text: `reply ${n}.0`,
        replyTo: said.id,
        createdAt: at(),
      });
      for (let i = 1; i <= alternatives; i++) {
        await db.update(messages).set({ selected: false }).where(eq(messages.replyTo, said.id));
        await createMessage(db, chat, {
          role: 'bot',
          text: `reply ${n}.${i}`,
          replyTo: said.id,
          altIndex: i,
          seq: reply.seq,
          createdAt: reply.createdAt,
        });
      }
    }
    await exchange(1, 4);
    await exchange(2, 0);
    await exchange(3, 2);
    await exchange(4, 0);

    const rows = await db
      .select({ id: messages.id, seq: messages.seq, text: messages.text })
      .from(messages)
      .where(eq(messages.chatId, chat.id));
    expect(rows).toHaveLength(14);
    expect(new Set(rows.map((r) => r.seq)).size).toBe(8);
    const expected = [...rows].sort((a, b) => a.seq - b.seq || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

    // Every page size up to the chat's length puts some page's end inside a group of five or three.
    for (let size = 1; size <= rows.length + 1; size++) {
      const file = path.join(dataDir, `paging-${owner.user.id}-${size}.zip`);
      const zip = new ZipFileWriter(file);
      await writeArchive(zip, { db, storage: storage(), userId: owner.user.id }, size);
      await zip.finish();
      const files = unzipSync(new Uint8Array(fs.readFileSync(file)));
      fs.rmSync(file);
      const names = Object.keys(files);
      const lines = strFromU8(files[names.find((n) => n.endsWith('messages.jsonl'))!]!)
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { id: string; seq: number });
      expect(
        lines.map((l) => [l.seq, l.id]),
        `page size ${size}`,
      ).toEqual(expected.map((r) => [r.seq, r.id]));
      // The transcript reads the same pages: every text once, in the same order.
      const transcript = strFromU8(files[names.find((n) => n.endsWith('transcript.md'))!]!);
      const said = [...transcript.matchAll(/^(user \d+|reply \d+\.\d+)$/gm)].map((m) => m[1]);
      expect(said, `page size ${size}`).toEqual(expected.map((r) => r.text));
    }
  });

  it('goes with the account (rows and files)', async () => {
    const owner = await createUser(t.app, t.database.db);
    const ready = await prepared(owner.auth);
    const [row] = await t.database.db.select().from(dataExports).where(eq(dataExports.id, ready.id));
    const deleted = await deleteAccount(t.app, t.database.db, owner.user.id, owner.auth);
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    expect(await t.database.db.select().from(dataExports).where(eq(dataExports.userId, owner.user.id))).toHaveLength(0);
    expect(await storage().exists(row!.storageKey!)).toBe(false);
    expect((await download(ready.download_url!)).statusCode).toBe(404);
  });
});
