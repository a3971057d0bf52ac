import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
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

const BIG_SCRIPT = `export const texts = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `text number ${i}`))};\n`;

function makeDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-dist-'));
  fs.writeFileSync(path.join(dir, 'index.html'), TEMPLATE);
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'assets', 'app-abc123.js'), 'console.log(1)');
  // As the build writes them (apps/web/vite.config.ts precompressDir): file, file.br, file.gz.
  fs.writeFileSync(path.join(dir, 'assets', 'entry-def456.js'), BIG_SCRIPT);
  fs.writeFileSync(path.join(dir, 'assets', 'entry-def456.js.br'), zlib.brotliCompressSync(BIG_SCRIPT));
  fs.writeFileSync(path.join(dir, 'assets', 'entry-def456.js.gz'), zlib.gzipSync(BIG_SCRIPT));
  fs.mkdirSync(path.join(dir, '.vite'));
  fs.writeFileSync(
    path.join(dir, '.vite', 'manifest.json'),
    JSON.stringify({
      'index.html': { file: 'assets/index-aaa111.js', isEntry: true, imports: ['_shared-bbb222.js'] },
      '_shared-bbb222.js': { file: 'assets/shared-bbb222.js' },
      '_grid-ccc333.js': { file: 'assets/grid-ccc333.js', imports: ['_shared-bbb222.js'] },
      'src/app/routes/explore.tsx': {
        file: 'assets/explore-ddd444.js',
        isDynamicEntry: true,
        imports: ['_shared-bbb222.js', '_grid-ccc333.js'],
      },
    }),
  );
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

  it("writes a guest's first catalogue page and its first pictures' preloads into / only", async () => {
    const home = (await app.inject('/')).body;
    const script = /<script type="application\/json" id="reverie-catalogue">([^<]*)<\/script>/.exec(home);
    expect(script).not.toBeNull();
    // Safe inside <script>: the name's "<" is written as \u003c.
    expect(script![1]).toContain('Luna \\u003cStar\\u003e');
    const page = JSON.parse(script![1]!) as { results: { slug: string; name: string }[]; next_param: null };
    expect(page.results.map((bot) => bot.slug)).toEqual(['luna-star']);
    expect(page.results[0]!.name).toBe('Luna <Star>');
    expect(home).toContain(
      '<link rel="preload" as="image" fetchpriority="high" href="/api/media/luna.png" imagesrcset="/api/media/luna.png?w=256 256w, /api/media/luna.png?w=512 512w" imagesizes="',
    );
    expect(home.indexOf('reverie-catalogue')).toBeLessThan(home.indexOf('</head>'));
    for (const other of ['/chat', '/luna-star', '/no/such/page'])
      expect((await app.inject(other)).body, other).not.toContain('reverie-catalogue');
  });

  it("preloads the character's picture in /{slug}, not in a 404", async () => {
    const chat = (await app.inject('/luna-star?chat=c1')).body;
    expect(chat).toContain('<link rel="preload" as="image" fetchpriority="high" href="/api/media/luna.png">');
    expect((await app.inject('/secret-one')).body).not.toContain('rel="preload" as="image"');
    expect((await app.inject('/no-such-character-xyz')).body).not.toContain('rel="preload" as="image"');
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

  it('sends the precompressed asset the browser accepts: br first, then gzip, else the file itself', async () => {
    const get = (acceptEncoding?: string) =>
      app.inject({
        url: '/assets/entry-def456.js',
        headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
      });
    const br = await get('gzip, deflate, br, zstd');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(BIG_SCRIPT);

    const gz = await get('gzip, deflate');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toMatch(/accept-encoding/i);
    expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(BIG_SCRIPT);

    for (const refused of ['identity', 'br;q=0, gzip;q=0', undefined]) {
      const plain = await get(refused);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toMatch(/accept-encoding/i);
      expect(plain.body).toBe(BIG_SCRIPT);
    }

    // A file without compressed copies (too small to be worth it) is sent as it is.
    const small = await app.inject({ url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body).toBe('console.log(1)');
  });

  it('sends pages (index.html) with no-cache, compressed when accepted', async () => {
    const br = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toContain('<div id="root">');

    const gz = await app.inject({ url: '/blog', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toContain('<title>Blog — Amoura</title>');

    const plain = await app.inject({ url: '/luna-star', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(plain.body).toContain('<title>Luna &lt;Star&gt; — Amoura</title>');
    const missing = await app.inject({ url: '/no/such/page', headers: { 'accept-encoding': 'br' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-cache');
  });

  it("preloads the chunks of the page's route that index.html does not load already", async () => {
    const home = await app.inject('/');
    expect(home.body).toContain('<link rel="modulepreload" crossorigin href="/assets/explore-ddd444.js">');
    expect(home.body).toContain('<link rel="modulepreload" crossorigin href="/assets/grid-ccc333.js">');
    expect(home.body).not.toContain('href="/assets/shared-bbb222.js"');
    expect(home.body.indexOf('modulepreload')).toBeLessThan(home.body.indexOf('</head>'));
    expect((await app.inject('/blog')).body).not.toContain('modulepreload');
  });

  it('uses the language cookie over Accept-Language for <html lang>', async () => {
    const res = await app.inject({ url: '/blog', headers: { cookie: 'lang=ru', 'accept-language': 'de' } });
    expect(res.body).toContain('<html lang="ru"');
    expect(res.body).toContain('<title>Блог — Amoura</title>');
  });
});
