import sharp from 'sharp';
import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getEdition, type AdminBlogPost, type BlogList } from '@reverie/shared';
import { createUser } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { multipartBody } from '../../../test/multipart.js';
import { auditLog, blogPosts } from '../../db/schema.js';
import { seedDatabase } from '../../seed.js';
import { readShippedBlogPosts } from '../blog/index.js';
import { renderIndexHtml, WebService } from '../web/index.js';

let t: TestApp;
let admin: { authorization: string };
beforeAll(async () => {
  t = await createTestApp();
  admin = (await createUser(t.app, t.database.db, { role: 'admin' })).auth;
});

const meta = (id: string) =>
  new WebService({
    db: t.database.db,
    bots: t.app.bots,
    edition: getEdition('reverie'),
    publicUrl: 'https://reverie.example',
  }).pageMeta(`/blog/${id}`, 'en');

const actions = async (id: string) =>
  (await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, id)).orderBy(asc(auditLog.id))).map(
    (a) => a.action,
  );

describe('admin blog', () => {
  it('answers 401 to a guest and 403 to a user', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const write = { method: 'POST' as const, url: '/api/admin/blog', payload: { id: 'nope', title: 'Nope' } };
    expect((await t.app.inject(write)).statusCode).toBe(401);
    expect((await t.app.inject({ ...write, headers: auth })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/blog', headers: auth })).statusCode).toBe(403);
    expect(await actions('nope')).toEqual([]);
  });

  it('keeps a draft out of public view; published, it shows with its SEO fields and cover', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/admin/blog',
      headers: admin,
      payload: {
        id: 'night-greenhouse',
        title: 'The night greenhouse',
        summary: 'Our new official character.',
        body: '# Hello\n\nMeet **Iris**.\n\n<script>alert(1)</script>',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json<AdminBlogPost>()).toMatchObject({ is_published: false, published_at: null });

    // Malformed and taken ids.
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/admin/blog',
      headers: admin,
      payload: { id: 'Bad Id', title: 'x' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toHaveProperty('id');
    const taken = await t.app.inject({
      method: 'POST',
      url: '/api/admin/blog',
      headers: admin,
      payload: { id: 'night-greenhouse', title: 'Again' },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('blog_id_taken');

    expect((await t.app.inject('/api/blog/night-greenhouse')).statusCode).toBe(404);
    expect((await meta('night-greenhouse')).status).toBe(404);
    const list = (await t.app.inject('/api/blog?size=50')).json<BlogList>();
    expect(list.results.map((p) => p.id)).not.toContain('night-greenhouse');
    const adminList = await t.app.inject({ method: 'GET', url: '/api/admin/blog', headers: admin });
    expect(adminList.json().results.map((p: AdminBlogPost) => p.id)).toContain('night-greenhouse');

    const edited = await t.app.inject({
      method: 'PATCH',
      url: '/api/admin/blog/night-greenhouse',
      headers: admin,
      payload: { seo_title: 'Iris, our night botanist', seo_description: 'Meet Iris & her orchids.' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    // What an edit does not send stays as it was.
    expect(edited.json<AdminBlogPost>()).toMatchObject({
      title: 'The night greenhouse',
      summary: 'Our new official character.',
      body: expect.stringContaining('Meet **Iris**.'),
    });

    const cover = await sharp({ create: { width: 80, height: 40, channels: 3, background: '#334455' } })
      .png()
      .toBuffer();
    const form = multipartBody({}, [{ field: 'file', filename: 'c.png', contentType: 'image/png', data: cover }]);
    const withCover = await t.app.inject({
      method: 'POST',
      url: '/api/admin/blog/night-greenhouse/cover',
      headers: { ...admin, ...form.headers },
      payload: form.payload,
    });
    expect(withCover.statusCode, withCover.body).toBe(200);
    const draftCover = withCover.json<AdminBlogPost>().cover_url!;
    expect(draftCover).toMatch(/^\/api\/media\/blog\/night-greenhouse\/cover-.*\?exp=/);
    // A draft's cover is not public.
    expect((await t.app.inject(draftCover.split('?')[0]!)).statusCode).toBe(404);
    expect((await t.app.inject(draftCover)).statusCode).toBe(200);

    const published = await t.app.inject({
      method: 'POST',
      url: '/api/admin/blog/night-greenhouse/publish',
      headers: admin,
      payload: { published: true },
    });
    expect(published.statusCode).toBe(200);
    const firstPublished = published.json<AdminBlogPost>().published_at;
    expect(firstPublished).not.toBeNull();

    const post = await t.app.inject('/api/blog/night-greenhouse');
    expect(post.statusCode).toBe(200);
    expect(post.json()).toMatchObject({
      title: 'The night greenhouse',
      cover_url: expect.stringMatching(/^\/api\/media\/blog\//),
    });
    expect((await t.app.inject(post.json().cover_url)).statusCode).toBe(200);
    const page = await meta('night-greenhouse');
    expect(page).toMatchObject({
      status: 200,
      title: 'Iris, our night botanist',
      description: 'Meet Iris & her orchids.',
      image: expect.stringMatching(/^https:\/\/reverie\.example\/api\/media\/blog\/night-greenhouse\//),
    });

    // Unpublish and publish again: the first publication's date stays.
    await t.app.inject({
      method: 'POST',
      url: '/api/admin/blog/night-greenhouse/publish',
      headers: admin,
      payload: { published: false },
    });
    expect((await t.app.inject('/api/blog/night-greenhouse')).statusCode).toBe(404);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/admin/blog/night-greenhouse/publish',
      headers: admin,
      payload: { published: true },
    });
    expect(again.json<AdminBlogPost>().published_at).toBe(firstPublished);

    expect(await actions('night-greenhouse')).toEqual([
      'blog_post.create',
      'blog_post.update',
      'blog_post.cover',
      'blog_post.publish',
      'blog_post.unpublish',
      'blog_post.publish',
    ]);
  });

  it('serves the page with the SEO title and description in <title> and the meta tags', async () => {
    const html = renderIndexHtml(
      '<html><head><title>x</title><meta name="description" content="x"><!--app-head--></head></html>',
      await meta('night-greenhouse'),
      { editionId: 'reverie', lang: 'en', siteName: 'Reverie' },
    );
    expect(html).toContain('<title>Iris, our night botanist</title>');
    expect(html).toContain('<meta name="description" content="Meet Iris &amp; her orchids." />');
    expect(html).toContain('<meta property="og:title" content="Iris, our night botanist" />');
  });

  it('leaves a shipped post edited in the console as edited when the seed runs again', async () => {
    const edition = getEdition('reverie');
    await seedDatabase(t.database.db, edition);
    const [shipped] = await readShippedBlogPosts(edition);
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/blog/${shipped!.id}`,
      headers: admin,
      payload: { title: 'Edited in the console' },
    });
    expect(res.statusCode).toBe(200);
    await seedDatabase(t.database.db, edition);
    const [row] = await t.database.db.select().from(blogPosts).where(eq(blogPosts.id, shipped!.id));
    expect(row!.title).toBe('Edited in the console');
  });
});
