import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bots, blogPosts } from '../../db/schema.js';
import { createTestApp, createTestDatabase } from '../../../test/helpers.js';

const TEMPLATE = `<!doctype html>
<html lang="en" data-edition="reverie">
  <head>
    <title>Reverie</title>
    <!--app-head-->
  </head>
  <body><div id="root"></div></body>
</html>`;

function makeDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-dist-'));
  fs.writeFileSync(path.join(dir, 'index.html'), TEMPLATE);
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'assets', 'app-abc123.js'), 'console.log(1)');
  fs.mkdirSync(path.join(dir, 'locales'));
  fs.writeFileSync(path.join(dir, 'locales', 'de.json'), '{"nav":{"explore":"Entdecken"}}');
  return dir;
}

describe('serving the web app', async () => {
  const database = await createTestDatabase();
  await database.db.insert(bots).values([
    {
      slug: 'luna-star',
      name: 'Luna <Star>',
      age: 24,
      description: 'A night-sky painter "who" talks to the moon.',
      greeting: 'Hi!',
      avatarUrl: '/api/media/luna.png',
      visibility: 'public',
      reviewState: 'approved',
      isOfficial: true,
    },
    { slug: 'secret-one', name: 'Secret', age: 30, visibility: 'private' },
  ]);
  await database.db
    .insert(blogPosts)
    .values({ id: 'hello-world', title: 'Hello world', summary: 'The first post.', body: '# Hi' });
  const { app } = await createTestApp({
    database,
    webDistDir: makeDist(),
    env: { PUBLIC_URL: 'https://reverie.example', APP_NAME: 'amoura' },
  });

  it('serves pages with the edition, language and default metadata', async () => {
    const res = await app.inject({ url: '/', headers: { 'accept-language': 'zh-CN,zh;q=0.9' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('<html lang="zh-CN" data-edition="amoura">');
    expect(res.body).toContain('<title>Amoura — 与 AI 伴侣温暖畅聊</title>');
    expect(res.body).toContain('<meta property="og:site_name" content="Amoura" />');
    expect(res.body).toContain('Amoura：用文字、图片和语音与 AI 角色聊天');
    const english = await app.inject({ url: '/' });
    expect(english.body).toContain('<title>Amoura — Warm conversations with AI companions</title>');
  });

  it('writes every page title in the reader language (cookie, else Accept-Language)', async () => {
    const title = async (url: string, headers: Record<string, string>) =>
      /<title>([^<]*)<\/title>/.exec((await app.inject({ url, headers })).body)?.[1];
    expect(await title('/chat', { 'accept-language': 'ru' })).toBe('Чаты — Amoura');
    expect(await title('/settings', { 'accept-language': 'de-DE,de;q=0.9' })).toBe('Profil — Amoura');
    expect(await title('/welcome', { cookie: 'lang=es' })).toBe('Te damos la bienvenida — Amoura');
    expect(await title('/blog', { cookie: 'lang=ch' })).toBe('博客 — Amoura');
    expect(await title('/no/such/page', { 'accept-language': 'ru' })).toBe('Страница не найдена — Amoura');
    expect(await title('/settings', {})).toBe('Profile — Amoura');
  });

  it("writes a character's title, description and image into /{slug}, escaped", async () => {
    const res = await app.inject('/luna-star?source=menu');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>Luna &lt;Star&gt; — Amoura</title>');
    expect(res.body).toContain('content="A night-sky painter &quot;who&quot; talks to the moon."');
    expect(res.body).toContain('<meta property="og:image" content="https://reverie.example/api/media/luna.png" />');
    expect(res.body).toContain('<meta property="og:url" content="https://reverie.example/luna-star" />');
  });

  it('keeps private characters out of link previews: their page answers 404 like an unknown one', async () => {
    const res = await app.inject('/secret-one');
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('Secret —');
    expect(res.body).toContain('<title>Page Not Found — Amoura</title>');
  });

  it('answers 404 with the app (its navigation) for /{slug} of no character, 200 for a real one', async () => {
    const unknown = await app.inject('/no-such-character-xyz');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toContain('text/html');
    expect(unknown.body).toContain('<div id="root">');
    expect(unknown.body).toContain('<title>Page Not Found — Amoura</title>');
    expect(unknown.body).not.toContain('og:type" content="profile"');
    // HEAD and a query string do not change the answer.
    expect((await app.inject({ method: 'HEAD', url: '/no-such-character-xyz?source=menu' })).statusCode).toBe(404);
    // Known pages stay 200; a real character keeps its own meta.
    expect((await app.inject('/luna-star')).statusCode).toBe(200);
    for (const page of ['/', '/blog', '/settings', '/welcome', '/chat'])
      expect((await app.inject(page)).statusCode, page).toBe(200);
    expect((await app.inject('/blog/no-such-post')).statusCode).toBe(404);
    // In the visitor's language.
    const german = await app.inject({ url: '/no-such-character-xyz', headers: { 'accept-language': 'de' } });
    expect(german.statusCode).toBe(404);
    expect(german.body).toContain('<title>Seite nicht gefunden — Amoura</title>');
  });

  it('writes a blog post title into /blog/{id}', async () => {
    const res = await app.inject('/blog/hello-world/');
    expect(res.body).toContain('<title>Hello world — Amoura</title>');
    expect(res.body).toContain('<meta property="og:type" content="article" />');
    expect(res.body).toContain('<meta name="description" content="The first post." />');
  });

  it('answers 404 with the app for paths no route matches, JSON 404 for unknown API paths', async () => {
    const page = await app.inject('/no/such/page');
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('<div id="root">');
    const api = await app.inject('/api/nope');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ code: 'not_found' });
    expect((await app.inject({ method: 'POST', url: '/settings' })).statusCode).toBe(404);
  });

  it('serves hashed assets with immutable caching and locale files', async () => {
    const asset = await app.inject('/assets/app-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const locale = await app.inject('/locales/de.json');
    expect(locale.json()).toEqual({ nav: { explore: 'Entdecken' } });
  });

  it('uses the language cookie over Accept-Language for <html lang>', async () => {
    const res = await app.inject({ url: '/blog', headers: { cookie: 'lang=ru', 'accept-language': 'de' } });
    expect(res.body).toContain('<html lang="ru"');
    expect(res.body).toContain('<title>Блог — Amoura</title>');
  });
});
