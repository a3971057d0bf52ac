import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaUrls } from '../../lib/media-urls.js';
import { LocalMediaStorage } from '../../providers/storage/local-storage.js';
import type { MediaStorage } from '../../providers/storage/storage.js';
import { createBot, createUser } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { isNotModified, rangeOf } from './http-file.js';

let t: TestApp;
let storage: MediaStorage;
let urls: MediaUrls;
let mediaDir: string;

/** 10 000 distinct-looking bytes, so any wrong offset shows. */
const VOICE = Buffer.from(Array.from({ length: 10_000 }, (_, i) => (i * 31 + (i >> 8)) % 256));

beforeAll(async () => {
  mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-media-'));
  storage = new LocalMediaStorage(mediaDir);
  t = await createTestApp({ storage });
  urls = new MediaUrls(t.config.JWT_SECRET!);
});
afterAll(() => fs.rmSync(mediaDir, { recursive: true, force: true }));

async function voiceOfNewUser() {
  const account = await createUser(t.app, t.database.db);
  const key = `chats/${account.user.id}/voice-${Date.now().toString(16)}.mp3`;
  await storage.put(key, VOICE, 'audio/mpeg');
  return { ...account, key };
}

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('GET /api/media/{key}: ranges', () => {
  it('answers the whole file with Accept-Ranges, ETag, Last-Modified and private caching', async () => {
    const { key, auth } = await voiceOfNewUser();
    const response = await get(`/api/media/${key}`, auth);
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(VOICE)).toBe(true);
    expect(response.headers['content-type']).toBe('audio/mpeg');
    expect(response.headers['content-length']).toBe(String(VOICE.length));
    expect(response.headers['accept-ranges']).toBe('bytes');
    expect(response.headers.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(new Date(String(response.headers['last-modified'])).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(response.headers['cache-control']).toBe('private, max-age=3600');
  });

  it('answers one byte range with 206, Content-Range and exactly those bytes', async () => {
    const { key, auth } = await voiceOfNewUser();
    const middle = await get(`/api/media/${key}`, { ...auth, range: 'bytes=1000-1999' });
    expect(middle.statusCode).toBe(206);
    expect(middle.headers['content-range']).toBe(`bytes 1000-1999/${VOICE.length}`);
    expect(middle.headers['content-length']).toBe('1000');
    expect(middle.headers['accept-ranges']).toBe('bytes');
    expect(middle.rawPayload.equals(VOICE.subarray(1000, 2000))).toBe(true);

    const open = await get(`/api/media/${key}`, { ...auth, range: 'bytes=9990-' });
    expect(open.statusCode).toBe(206);
    expect(open.headers['content-range']).toBe(`bytes 9990-9999/${VOICE.length}`);
    expect(open.rawPayload.equals(VOICE.subarray(9990))).toBe(true);

    const suffix = await get(`/api/media/${key}`, { ...auth, range: 'bytes=-16' });
    expect(suffix.statusCode).toBe(206);
    expect(suffix.rawPayload.equals(VOICE.subarray(VOICE.length - 16))).toBe(true);

    // An end past the file is cut to the file (Chromium asks `bytes=0-` and reads on).
    const past = await get(`/api/media/${key}`, { ...auth, range: 'bytes=9000-20000' });
    expect(past.headers['content-range']).toBe(`bytes 9000-9999/${VOICE.length}`);
    expect(past.rawPayload.length).toBe(1000);
  });

  it('answers 416 with the size for a range past the end, and ignores a malformed or multiple range', async () => {
    const { key, auth } = await voiceOfNewUser();
    const past = await get(`/api/media/${key}`, { ...auth, range: `bytes=${VOICE.length}-` });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${VOICE.length}`);
    expect(past.json()).toMatchObject({ code: 'range_not_satisfiable' });
    expect(past.headers['content-type']).toMatch(/application\/json/);
    expect((await get(`/api/media/${key}`, { ...auth, range: 'bytes=-0' })).statusCode).toBe(416);
    for (const range of ['bytes=5-1', 'pages=1-2', 'bytes=abc', 'bytes=0-1,5-6']) {
      const whole = await get(`/api/media/${key}`, { ...auth, range });
      expect(whole.statusCode, range).toBe(200);
      expect(whole.rawPayload.length).toBe(VOICE.length);
    }
  });

  it('serves the whole file when If-Range names another version', async () => {
    const { key, auth } = await voiceOfNewUser();
    const etag = String((await get(`/api/media/${key}`, auth)).headers.etag);
    expect((await get(`/api/media/${key}`, { ...auth, range: 'bytes=0-9', 'if-range': etag })).statusCode).toBe(206);
    expect((await get(`/api/media/${key}`, { ...auth, range: 'bytes=0-9', 'if-range': '"old"' })).statusCode).toBe(200);
  });

  it('answers HEAD with the headers and no body', async () => {
    const { key, auth } = await voiceOfNewUser();
    const head = await t.app.inject({ method: 'HEAD', url: `/api/media/${key}`, headers: auth });
    expect(head.statusCode).toBe(200);
    expect(head.headers['accept-ranges']).toBe('bytes');
    expect(head.headers['content-length']).toBe(String(VOICE.length));
    expect(head.rawPayload.length).toBe(0);
  });
});

describe('GET /api/media/{key}: validators and caching', () => {
  it('answers If-None-Match with the ETag (or *) 304 without a body; a changed file gets a new ETag', async () => {
    const { key, auth } = await voiceOfNewUser();
    const first = await get(`/api/media/${key}`, auth);
    const etag = String(first.headers.etag);
    const again = await get(`/api/media/${key}`, { ...auth, 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe('private, max-age=3600');
    expect((await get(`/api/media/${key}`, { ...auth, 'if-none-match': `"x", W/${etag}` })).statusCode).toBe(304);
    expect((await get(`/api/media/${key}`, { ...auth, 'if-none-match': '"other"' })).statusCode).toBe(200);

    const since = String(first.headers['last-modified']);
    expect((await get(`/api/media/${key}`, { ...auth, 'if-modified-since': since })).statusCode).toBe(304);

    await new Promise((resolve) => setTimeout(resolve, 5));
    await storage.put(key, Buffer.concat([VOICE, Buffer.from('more')]), 'audio/mpeg');
    const changed = await get(`/api/media/${key}`, { ...auth, 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('caches public character pictures publicly and signed media no longer than the signature lives', async () => {
    const bot = await createBot(t.database.db);
    const avatar = `bots/${bot.id}/avatar.png`;
    await storage.put(avatar, Buffer.from('png-bytes'), 'image/png');
    const open = await get(`/api/media/${avatar}`);
    expect(open.statusCode).toBe(200);
    expect(open.headers['cache-control']).toBe('public, max-age=86400');

    const { key } = await voiceOfNewUser();
    const signed = urls.url(key, { signed: true })!;
    const response = await get(signed);
    expect(response.statusCode).toBe(200);
    const maxAge = Number(/max-age=(\d+)/.exec(String(response.headers['cache-control']))?.[1]);
    const exp = Number(new URL(signed, 'http://x').searchParams.get('exp'));
    expect(String(response.headers['cache-control'])).toMatch(/^private, /);
    expect(maxAge).toBeLessThanOrEqual(exp - Math.floor(Date.now() / 1000));
    expect(maxAge).toBeGreaterThan(0);
  });
});

describe('GET /api/media/{key}: who may load it', () => {
  it("answers 404 for another user's voice or picture, with or without a range or validator", async () => {
    const owner = await voiceOfNewUser();
    const other = await createUser(t.app, t.database.db);
    const picture = `chats/${owner.user.id}/picture.webp`;
    await storage.put(picture, Buffer.from('webp-bytes'), 'image/webp');
    const etag = String((await get(`/api/media/${owner.key}`, owner.auth)).headers.etag);
    const variants: Record<string, string>[] = [
      {},
      { range: 'bytes=0-9' },
      { 'if-none-match': etag },
      { range: 'bytes=99999-' },
    ];
    for (const key of [owner.key, picture]) {
      for (const headers of variants) {
        const refused = await get(`/api/media/${key}`, { ...other.auth, ...headers });
        expect(refused.statusCode).toBe(404);
        expect(refused.headers['accept-ranges']).toBeUndefined();
        expect(refused.headers.etag).toBeUndefined();
        expect((await get(`/api/media/${key}`, headers)).statusCode).toBe(404);
      }
    }
    // A signature for one key opens no other, ranges included.
    const signed = new URL(urls.url(owner.key, { signed: true })!, 'http://x');
    expect((await get(`/api/media/${picture}${signed.search}`, { range: 'bytes=0-1' })).statusCode).toBe(404);
    // A private character's pictures: not to strangers, ranges included.
    const hidden = await createBot(t.database.db, { visibility: 'private', authorId: owner.user.id });
    await storage.put(`bots/${hidden.id}/avatar.png`, Buffer.from('png'), 'image/png');
    expect((await get(`/api/media/bots/${hidden.id}/avatar.png`, { range: 'bytes=0-0' })).statusCode).toBe(404);
    expect((await get(`/api/media/bots/${hidden.id}/avatar.png`, owner.auth)).statusCode).toBe(200);
  });

  it("answers a character's picture at card size as WebP (?w=), made once and kept beside it", async () => {
    const bot = await createBot(t.database.db);
    const avatar = `bots/${bot.id}/avatar.png`;
    const png = await sharp({ create: { width: 768, height: 1024, channels: 3, background: '#a05070' } })
      .png()
      .toBuffer();
    await storage.put(avatar, png, 'image/png');
    const small = await get(`/api/media/${avatar}?w=256`);
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-type']).toBe('image/webp');
    expect(small.headers['cache-control']).toBe('public, max-age=86400');
    const meta = await sharp(small.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 256, 341]);
    expect(small.rawPayload.length).toBeLessThan(png.length);
    expect(await storage.exists(`${avatar}.w256.webp`)).toBe(true);
    const again = await get(`/api/media/${avatar}?w=256`, { 'if-none-match': String(small.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect((await sharp((await get(`/api/media/${avatar}?w=512`)).rawPayload).metadata()).width).toBe(512);
    // Only the listed widths; the original stays as it was.
    expect((await get(`/api/media/${avatar}?w=300`)).statusCode).toBe(400);
    expect((await get(`/api/media/${avatar}`)).rawPayload.equals(png)).toBe(true);
    // A private character's picture stays private at any size.
    const hidden = await createBot(t.database.db, { visibility: 'private' });
    await storage.put(`bots/${hidden.id}/avatar.png`, png, 'image/png');
    expect((await get(`/api/media/bots/${hidden.id}/avatar.png?w=256`)).statusCode).toBe(404);
    expect(await storage.exists(`bots/${hidden.id}/avatar.png.w256.webp`)).toBe(false);
  });

  it('answers 404 for a missing file', async () => {
    const { user, auth } = await voiceOfNewUser();
    expect((await get(`/api/media/chats/${user.id}/none.mp3`, { ...auth, range: 'bytes=0-1' })).statusCode).toBe(404);
  });
});

describe('http-file', () => {
  const file = { size: 100, etag: '"a-1"', lastModified: new Date('2026-11-20T10:00:00.500Z') };
  it('reads ranges', () => {
    expect(rangeOf({}, file)).toEqual({ kind: 'whole' });
    expect(rangeOf({ range: 'bytes=0-0' }, file)).toEqual({ kind: 'partial', range: { start: 0, end: 0 } });
    expect(rangeOf({ range: 'bytes=-200' }, file)).toEqual({ kind: 'partial', range: { start: 0, end: 99 } });
    expect(rangeOf({ range: 'bytes=100-' }, file)).toEqual({ kind: 'unsatisfiable' });
    expect(rangeOf({ range: 'bytes=0-1' }, { ...file, size: 0 })).toEqual({ kind: 'unsatisfiable' });
    expect(rangeOf({ range: 'bytes=99999999999999999999-' }, file)).toEqual({ kind: 'whole' });
    expect(rangeOf({ range: 'bytes=0-9', 'if-range': file.lastModified.toUTCString() }, file).kind).toBe('partial');
    expect(rangeOf({ range: 'bytes=0-9', 'if-range': 'W/"a-1"' }, file).kind).toBe('whole');
  });
  it('compares validators', () => {
    expect(isNotModified({ 'if-none-match': '*' }, file)).toBe(true);
    expect(isNotModified({ 'if-none-match': '"b", "a-1"' }, file)).toBe(true);
    expect(isNotModified({ 'if-none-match': '"b"', 'if-modified-since': file.lastModified.toUTCString() }, file)).toBe(
      false,
    );
    expect(isNotModified({ 'if-modified-since': 'not a date' }, file)).toBe(false);
    expect(isNotModified({ 'if-modified-since': new Date('2026-11-20T09:59:59Z').toUTCString() }, file)).toBe(false);
  });
});
