import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { bots } from '../db/schema.js';
import { createTestApp, createTestDatabase } from '../../test/helpers.js';
import { preferredEncoding } from './compression.js';

describe('compressed JSON answers', async () => {
  const database = await createTestDatabase();
  await database.db.insert(bots).values(
    Array.from({ length: 20 }, (_, i) => ({
      slug: `char-${i}`,
      name: `Character ${i}`,
      age: 25,
      description: 'A long enough description to make the catalogue page larger than a kilobyte.',
      greeting: 'Hi!',
      avatarUrl: `/api/media/char-${i}.png`,
      visibility: 'public' as const,
      reviewState: 'approved' as const,
      isOfficial: true,
    })),
  );
  const { app } = await createTestApp({ database });

  it('sends brotli, else gzip, else plain JSON, by Accept-Encoding, with Vary', async () => {
    const plain = await app.inject({ url: '/api/bots/available?size=20' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(String(plain.headers.vary)).toMatch(/accept-encoding/i);
    const body = plain.json() as { results: unknown[] };
    expect(body.results).toHaveLength(20);

    const br = await app.inject({ url: '/api/bots/available?size=20', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(body);

    const gz = await app.inject({ url: '/api/bots/available?size=20', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gz.rawPayload).toString('utf8'))).toEqual(body);
  });

  it('leaves small answers alone', async () => {
    const health = await app.inject({ url: '/api/health', headers: { 'accept-encoding': 'br' } });
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.statusCode).toBe(200);
  });

  it('picks the encoding as browsers ask', () => {
    expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(preferredEncoding('gzip')).toBe('gzip');
    expect(preferredEncoding('br;q=0, gzip')).toBe('gzip');
    expect(preferredEncoding('identity')).toBeNull();
    expect(preferredEncoding(undefined)).toBeNull();
    // Answers are kept per header: asked again, and after many other headers, the same.
    for (let i = 0; i < 500; i++) preferredEncoding(`gzip;q=0.${i % 10}, x-${i}`);
    expect(preferredEncoding('br;q=0, gzip')).toBe('gzip');
    expect(preferredEncoding('gzip;q=0, br')).toBe('br');
    expect(preferredEncoding(`${'x'.repeat(300)}, gzip`)).toBe('gzip');
    expect(preferredEncoding(`${'x'.repeat(300)}, gzip;q=0`)).toBeNull();
  });
});
