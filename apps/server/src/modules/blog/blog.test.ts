import { describe, expect, it } from 'vitest';
import { getEdition } from '@reverie/shared';
import { createTestApp } from '../../../test/helpers.js';
import { readShippedBlogPosts, seedDatabase } from '../../db/seed.js';
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
});
