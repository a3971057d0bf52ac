import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { getEdition } from '@reverie/shared';
import { prepareServer } from '../src/runtime.js';
import { testConfig } from './helpers.js';
import { withDatabase } from './global-setup.js';
import { readShippedBlogPosts } from '../src/modules/blog/index.js';
import { OFFICIAL_CHARACTERS } from '../src/modules/bots/index.js';

const target = inject('testDb');

/**
 * Replicas started together on a new database (issue 12): migrations and the seed run under
 * the startup lock, so every replica comes up and the content is seeded once.
 */
describe.skipIf(target.kind !== 'postgres')('replicas starting together (PostgreSQL; PGlite is one process)', () => {
  const url = target.kind === 'postgres' ? target.url : '';
  const name = `reverie_start_${randomBytes(6).toString('hex')}`;
  const admin = postgres(url || 'postgres://unused', { max: 1, onnotice: () => {} });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-start-'));
  afterAll(async () => {
    await admin.unsafe(`drop database if exists ${name} with (force)`).catch(() => undefined);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('three servers prepared at once on a new database all start; the seed runs once', async () => {
    await admin.unsafe(`create database ${name}`);
    const config = testConfig({
      DATABASE_URL: withDatabase(url, name),
      DATABASE_POOL_SIZE: '3',
      DATA_DIR: dataDir,
      SEED_ON_START: 'true',
      WEB_DIST_DIR: '',
    });
    const results = await Promise.allSettled([prepareServer(config), prepareServer(config), prepareServer(config)]);
    try {
      expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok']);
      const db = postgres(withDatabase(url, name), { max: 1, onnotice: () => {} });
      try {
        const [bots] =
          await db`select count(*)::int as n, count(distinct slug)::int as slugs from bots where is_official`;
        expect(bots).toEqual({ n: OFFICIAL_CHARACTERS.length, slugs: OFFICIAL_CHARACTERS.length });
        const [posts] = await db`select count(*)::int as n from blog_posts`;
        expect(posts!.n).toBe((await readShippedBlogPosts(getEdition(config.APP_NAME))).length);
        const [gallery] = await db`
          select count(*) filter (where p.visibility = 'public')::int as public,
                 count(*) filter (where p.visibility = 'private')::int as private
          from bot_pictures p join bots b on b.id = p.bot_id where b.is_official`;
        // Three on each page, twelve sent in chat (issue 26): rows written once, by one replica.
        expect(gallery).toEqual({ public: OFFICIAL_CHARACTERS.length * 3, private: OFFICIAL_CHARACTERS.length * 12 });
        const [migrations] = await db`select count(*)::int as n from drizzle.__drizzle_migrations`;
        const journal = JSON.parse(
          fs.readFileSync(path.join(import.meta.dirname, '../drizzle/meta/_journal.json'), 'utf8'),
        ) as { entries: unknown[] };
        expect(migrations!.n).toBe(journal.entries.length);
      } finally {
        await db.end();
      }
    } finally {
      for (const result of results) if (result.status === 'fulfilled') await result.value.app.close();
    }
  }, 180_000);
});
