import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeHttp, type FakeHttp, type FakeRequest } from '../../../test/fake-http.js';
import { testConfig } from '../../../test/helpers.js';
import { createMediaStorage } from './index.js';
import { LocalMediaStorage } from './local-storage.js';
import { S3MediaStorage } from './s3-storage.js';
import type { MediaStorage } from './storage.js';

/**
 * A small fake S3: objects in memory per bucket, path-style or virtual-host addressing,
 * ListObjectsV2 with pages of 2 keys, and a check that every request is signed (SigV4).
 */
function fakeS3() {
  const objects = new Map<string, { data: Buffer; type: string }>();
  const log: string[] = [];
  const handle = (req: FakeRequest, res: http.ServerResponse) => {
    const url = new URL(req.url, 'http://s3.test');
    const auth = req.headers.authorization ?? '';
    if (
      !/^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/eu-test-1\/s3\/aws4_request, SignedHeaders=.+, Signature=[0-9a-f]{64}$/.test(
        auth,
      )
    ) {
      res.writeHead(403, { 'content-type': 'application/xml' });
      return res.end('<Error><Code>AccessDenied</Code></Error>');
    }
    // Path style: /bucket/key; virtual host: bucket.host/key.
    const host = req.headers.host ?? '';
    const parts = url.pathname.split('/').slice(1).map(decodeURIComponent);
    const bucket = host.startsWith('media.') ? 'media' : parts.shift()!;
    const key = parts.join('/');
    const id = `${bucket}/${key}`;
    log.push(`${req.method} ${id}`);
    if (req.method === 'PUT') {
      objects.set(id, { data: req.raw, type: String(req.headers['content-type']) });
      res.writeHead(200, { etag: '"x"' });
      return res.end();
    }
    if (req.method === 'GET' && key === '' && url.searchParams.get('list-type') === '2') {
      const prefix = url.searchParams.get('prefix') ?? '';
      const all = [...objects.keys()]
        .filter((k) => k.startsWith(`${bucket}/${prefix}`))
        .map((k) => k.slice(bucket.length + 1))
        .sort();
      const start = Number(url.searchParams.get('continuation-token') ?? 0);
      const page = all.slice(start, start + 2);
      const more = start + 2 < all.length;
      res.writeHead(200, { 'content-type': 'application/xml' });
      return res.end(
        `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>${bucket}</Name><Prefix>${prefix}</Prefix>` +
          page.map((k) => `<Contents><Key>${k}</Key><Size>1</Size></Contents>`).join('') +
          `<IsTruncated>${more}</IsTruncated>${more ? `<NextContinuationToken>${start + 2}</NextContinuationToken>` : ''}</ListBucketResult>`,
      );
    }
    const object = objects.get(id);
    if (req.method === 'GET' || req.method === 'HEAD') {
      if (!object) {
        res.writeHead(404, { 'content-type': 'application/xml' });
        return res.end(req.method === 'GET' ? '<Error><Code>NoSuchKey</Code></Error>' : undefined);
      }
      const headers = {
        'content-type': object.type,
        etag: `"etag-${object.data.length}"`,
        'last-modified': 'Fri, 20 Nov 2026 10:00:00 GMT',
      };
      const range = /^bytes=(\d+)-(\d+)$/.exec(String(req.headers.range ?? ''));
      if (req.method === 'GET' && range) {
        const start = Number(range[1]);
        const end = Math.min(Number(range[2]), object.data.length - 1);
        res.writeHead(206, {
          ...headers,
          'content-range': `bytes ${start}-${end}/${object.data.length}`,
          'content-length': end - start + 1,
        });
        return res.end(object.data.subarray(start, end + 1));
      }
      res.writeHead(200, { ...headers, 'content-length': object.data.length });
      return res.end(req.method === 'GET' ? object.data : undefined);
    }
    if (req.method === 'DELETE') {
      objects.delete(id);
      res.writeHead(204);
      return res.end();
    }
    res.writeHead(405);
    res.end();
  };
  return { handle, objects, log };
}

const s3 = fakeS3();
let server: FakeHttp;
let endpoint = '';
beforeAll(async () => {
  server = await startFakeHttp(s3.handle);
  endpoint = server.url;
});
afterAll(() => server.close());

const storage = (overrides: Partial<ConstructorParameters<typeof S3MediaStorage>[0]> = {}) =>
  new S3MediaStorage({
    endpoint,
    region: 'eu-test-1',
    bucket: 'media',
    accessKeyId: 'AKIDTEST',
    secretAccessKey: 'secret-test',
    forcePathStyle: true,
    ...overrides,
  });

describe('S3 media storage', () => {
  it('puts, gets, checks and deletes objects (signed requests, path style)', async () => {
    const store = storage();
    const data = Buffer.from('picture-bytes');
    await store.put('chats/u1/abc.webp', data, 'image/webp');
    expect(s3.objects.get('media/chats/u1/abc.webp')?.type).toBe('image/webp');
    expect(await store.get('chats/u1/abc.webp')).toEqual({ data, contentType: 'image/webp' });
    expect(await store.exists('chats/u1/abc.webp')).toBe(true);
    expect(await store.exists('chats/u1/none.webp')).toBe(false);
    expect(await store.get('chats/u1/none.webp')).toBeNull();
    await store.delete('chats/u1/abc.webp');
    expect(await store.exists('chats/u1/abc.webp')).toBe(false);
    await store.delete('chats/u1/abc.webp');
  });

  it('puts a file from disk as a streamed body (a data archive), and so does local storage', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-putfile-'));
    try {
      const file = path.join(dir, 'archive.zip');
      const data = Buffer.alloc(300_000, 7);
      fs.writeFileSync(file, data);
      await storage().putFile('exports/u1/a.zip', file, 'application/zip');
      expect(s3.objects.get('media/exports/u1/a.zip')).toEqual({ data, type: 'application/zip' });
      const local: MediaStorage = new LocalMediaStorage(path.join(dir, 'media'));
      await local.putFile('exports/u1/a.zip', file, 'application/zip');
      expect((await local.stat('exports/u1/a.zip'))?.contentType).toBe('application/zip');
      expect((await local.get('exports/u1/a.zip'))?.data.equals(data)).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports size, type and validators (HEAD) and streams a byte range with a ranged GET', async () => {
    const store = storage();
    const data = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
    await store.put('chats/u3/voice-1.mp3', data, 'audio/mpeg');
    expect(await store.stat('chats/u3/voice-1.mp3')).toEqual({
      size: 5000,
      contentType: 'audio/mpeg',
      etag: '"etag-5000"',
      lastModified: new Date('2026-11-20T10:00:00Z'),
    });
    expect(await store.stat('chats/u3/none.mp3')).toBeNull();
    const read = async (stream: NodeJS.ReadableStream | null) => {
      const chunks: Buffer[] = [];
      for await (const chunk of stream!) chunks.push(Buffer.from(chunk as Buffer));
      return Buffer.concat(chunks);
    };
    const seen: string[] = [];
    const spying = storage({
      fetch: async (input) => {
        seen.push((input as Request).headers.get('range') ?? '');
        return fetch(input as Request);
      },
    });
    expect(
      (await read(await spying.stream('chats/u3/voice-1.mp3', { start: 100, end: 1099 }))).equals(
        data.subarray(100, 1100),
      ),
    ).toBe(true);
    expect(seen).toEqual(['bytes=100-1099']);
    expect((await read(await store.stream('chats/u3/voice-1.mp3'))).equals(data)).toBe(true);
    expect(await store.stream('chats/u3/none.mp3')).toBeNull();

    // A service that ignores Range answers 200 with everything: the range is cut out here.
    const ignoring = storage({
      fetch: async (input) => {
        const request = input as Request;
        return fetch(request.url, { headers: { authorization: request.headers.get('authorization')! } });
      },
    });
    expect(
      (await read(await ignoring.stream('chats/u3/voice-1.mp3', { start: 4990, end: 4999 }))).equals(
        data.subarray(4990),
      ),
    ).toBe(true);
  });

  it('deletes every key under a prefix across list pages, and nothing else', async () => {
    const store = storage();
    for (const name of ['a', 'b', 'c', 'd', 'e'])
      await store.put(`originals/u2/${name}.webp`, Buffer.from(name), 'image/webp');
    await store.put('originals/u22/keep.webp', Buffer.from('k'), 'image/webp');
    await store.deletePrefix('originals/u2');
    expect([...s3.objects.keys()].filter((k) => k.startsWith('media/originals/'))).toEqual([
      'media/originals/u22/keep.webp',
    ]);
  });

  it('addresses the bucket as a virtual host when path style is off', async () => {
    const seen: string[] = [];
    const store = storage({
      endpoint: 'http://s3.example.test',
      forcePathStyle: false,
      fetch: async (input) => {
        const request = input as Request;
        seen.push(request.url);
        // Send it to the fake server with the virtual host name kept.
        const url = new URL(request.url);
        return fetch(`${endpoint}${url.pathname}${url.search}`, {
          method: request.method,
          headers: { authorization: request.headers.get('authorization')!, host: url.host },
        });
      },
    });
    expect(await store.exists('bots/b1/avatar.png')).toBe(false);
    expect(seen[0]).toBe('http://media.s3.example.test/bots/b1/avatar.png');
  });

  it('reports a refused request as an error', async () => {
    await expect(storage({ accessKeyId: 'WRONG' }).put('x/y.png', Buffer.from('1'), 'image/png')).rejects.toThrow(
      /403 AccessDenied/,
    );
  });

  it('refuses keys that are not media keys', async () => {
    await expect(storage().get('../etc/passwd')).rejects.toThrow(/invalid media key/);
  });

  it('is chosen by STORAGE_PROVIDER, local files by default', () => {
    expect(createMediaStorage(testConfig())).toBeInstanceOf(LocalMediaStorage);
    const config = testConfig({
      STORAGE_PROVIDER: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: 'media',
      S3_ACCESS_KEY_ID: 'AKIDTEST',
      S3_SECRET_ACCESS_KEY: 'secret-test',
    });
    expect(createMediaStorage(config)).toBeInstanceOf(S3MediaStorage);
    expect(() => createMediaStorage(testConfig({ STORAGE_PROVIDER: 's3' }))).toThrow(/S3_ENDPOINT, S3_BUCKET/);
  });
});
