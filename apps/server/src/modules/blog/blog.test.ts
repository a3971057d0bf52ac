import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getEdition } from '@reverie/shared';
import { createTestApp } from '../../../test/helpers.js';
import { seedDatabase } from '../../seed.js';
import { blogIdOf, readBlogPosts, readShippedBlogPosts } from './blog.seed.js';
import { insertMissingPosts } from './blog.repository.js';

describe('blog', async () => {
  const { app, database } = await createTestApp();
  const shipped = await readShippedBlogPosts(getEdition('reverie'));
  await seedDatabase(database.db, getEdition('reverie'));
  const extra = Array.from({ length: 13 }, (_, i) => ({
    id: `extra-post-${i}`,
    title: `Extra ${i}`,
    summary: `Summary ${i}`,
    body: `Body ${i}`,
    // Two posts share each timestamp so the cursor must break ties by id.
    publishedAt: new Date(Date.UTC(2026, 7, 1 + Math.floor(i / 2))),
  }));
  await insertMissingPosts(database.db, extra);
  await insertMissingPosts(database.db, [
    { id: 'a-draft', title: 'Draft', summary: 'Not yet', body: 'Hidden', isPublished: false },
  ]);

  it('seeds the shipped posts once, with the edition name filled in', async () => {
    expect(shipped.length).toBeGreaterThanOrEqual(4);
    expect(await seedDatabase(database.db, getEdition('reverie'))).toMatchObject({ blogPosts: 0 });
    for (const post of shipped) {
      expect(post.title + post.body).not.toContain('{{name}}');
    }
  });

  it('lists published posts newest first across pages with no duplicate or gap', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await app.inject({ url: '/api/blog', query: { size: '5', ...(cursor ? { c: cursor } : {}) } });
      expect(res.statusCode).toBe(200);
      const body = res.json() as { results: { id: string; published_at: string }[]; next_param: string | null };
      seen.push(...body.results.map((p) => p.id));
      cursor = body.next_param;
      pages += 1;
    } while (cursor && pages < 20);
    expect(seen).toHaveLength(shipped.length + extra.length);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).not.toContain('a-draft');
    const newest = shipped.reduce((a, b) => (a.publishedAt! > b.publishedAt! ? a : b));
    expect(seen[0]).toBe(newest.id);
  });

  it('serves one post with its Markdown body', async () => {
    const res = await app.inject(`/api/blog/${shipped[0]!.id}/`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: shipped[0]!.id, title: shipped[0]!.title, body: expect.any(String) });
  });

  it('serves every shipped post in each language, English as the fallback, and the seed rewrites changed translations', async () => {
    const marks = { ch: /[\u4e00-\u9fff]/u, es: /\b(de|que|los|las)\b/u, de: /\b(und|der|die|das)\b/u, ru: /[а-яё]/iu };
    for (const post of shipped) {
      const english = (await app.inject(`/api/blog/${post.id}`)).json() as { title: string; body: string };
      for (const [locale, mark] of Object.entries(marks)) {
        const res = await app.inject({ url: `/api/blog/${post.id}`, headers: { 'accept-language': locale } });
        expect(res.statusCode).toBe(200);
        const translated = res.json() as { title: string; summary: string; body: string };
        expect(translated.title, `${post.id} ${locale}`).not.toBe(english.title);
        expect(translated.body, `${post.id} ${locale}`).toMatch(mark);
        expect(translated.title + translated.summary + translated.body).not.toContain('{{name}}');
        // The links of the English post are kept.
        for (const link of english.body.match(/\]\([^)]+\)/g) ?? []) expect(translated.body).toContain(link);
      }
    }
    // A list page in Russian; an unknown language and a post without translations fall back to English.
    const list = (
      await app.inject({ url: '/api/blog', query: { size: '50' }, headers: { 'accept-language': 'ru' } })
    ).json() as {
      results: { id: string; title: string }[];
    };
    expect(list.results.find((p) => p.id === shipped[0]!.id)!.title).toMatch(/[а-яё]/iu);
    expect(list.results.find((p) => p.id === 'extra-post-0')!.title).toBe('Extra 0');
    const french = (
      await app.inject({ url: `/api/blog/${shipped[0]!.id}`, headers: { 'accept-language': 'fr' } })
    ).json();
    expect(french).toMatchObject({ title: shipped[0]!.title });
    // A changed translation is written again on the next seed; the English text stays as edited.
    await database.db.execute(
      sql`update blog_posts set translations = '{}'::jsonb, title = 'Edited' where id = ${shipped[0]!.id}`,
    );
    await seedDatabase(database.db, getEdition('reverie'));
    const again = (
      await app.inject({ url: `/api/blog/${shipped[0]!.id}`, headers: { 'accept-language': 'de' } })
    ).json();
    expect(again.title).toBe(shipped[0]!.translations!.de!.title);
    expect((await app.inject(`/api/blog/${shipped[0]!.id}`)).json().title).toBe('Edited');
  });

  it('answers 404 for drafts and unknown posts, 400 for malformed ids and junk cursors', async () => {
    expect((await app.inject('/api/blog/a-draft')).statusCode).toBe(404);
    expect((await app.inject('/api/blog/no-such-post')).json()).toMatchObject({ code: 'not_found' });
    const malformed = await app.inject('/api/blog/Bad%20Id!');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().errors).toHaveProperty('id');
    const junk = await app.inject({ url: '/api/blog', query: { c: 'not-a-cursor' } });
    expect(junk.statusCode).toBe(400);
    expect(junk.json().code).toBe('invalid_cursor');
    expect((await app.inject({ url: '/api/blog', query: { size: '0' } })).statusCode).toBe(400);
  });

  it('derives ids the cursor accepts from any file name, so paging never breaks on one', async () => {
    expect(blogIdOf('Launch_2025.md')).toBe('launch-2025');
    expect(blogIdOf('Été  2026 — news!.md')).toBe('ete-2026-news');
    for (const file of ['how-memory-works.md', 'a.md']) expect(blogIdOf(file)).toBe(path.basename(file, '.md'));
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'reverie-blog-'));
    try {
      const post = (date: string) => `---\ntitle: A post\npublished_at: ${date}\n---\nBody`;
      await fs.writeFile(path.join(dir, 'Launch_2025.md'), post('2031-01-02T00:00:00Z'));
      await fs.writeFile(path.join(dir, 'Été 2026.md'), post('2031-01-01T00:00:00Z'));
      const posts = await readBlogPosts(dir, getEdition('reverie'));
      expect(posts.map((p) => p.id).sort()).toEqual(['ete-2026', 'launch-2025']);
      await insertMissingPosts(database.db, posts);
      // Page by one through the newest posts: the cursor carries each of these ids.
      let cursor: string | null = null;
      const seen: string[] = [];
      for (let page = 0; page < 3; page++) {
        const res = await app.inject({ url: '/api/blog', query: { size: '1', ...(cursor ? { c: cursor } : {}) } });
        expect(res.statusCode).toBe(200);
        const body = res.json() as { results: { id: string }[]; next_param: string | null };
        seen.push(...body.results.map((p) => p.id));
        cursor = body.next_param;
      }
      expect(seen.slice(0, 2)).toEqual(['launch-2025', 'ete-2026']);
      expect((await app.inject('/api/blog/launch-2025/')).statusCode).toBe(200);

      await fs.writeFile(path.join(dir, 'launch 2025.md'), post('2031-01-03T00:00:00Z'));
      await expect(readBlogPosts(dir, getEdition('reverie'))).rejects.toThrow(/both give the id "launch-2025"/);
      await fs.rm(path.join(dir, 'launch 2025.md'));
      await fs.writeFile(path.join(dir, '___.md'), post('2031-01-03T00:00:00Z'));
      await expect(readBlogPosts(dir, getEdition('reverie'))).rejects.toThrow(/gives no id/);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
