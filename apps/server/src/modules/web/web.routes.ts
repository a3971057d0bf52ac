import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  CARD_PICTURE_SIZES,
  cardPictureSrcSet,
  INLINE_CATALOGUE_ID,
  LOCALE_HTML_LANG,
  matchWebRoute,
  negotiateLocale,
  toLocale,
  type BotList,
  type Edition,
  type Locale,
} from '@reverie/shared';
import { notFound } from '../../lib/errors.js';
import { escapeHtml, insertLiteral, scriptJson } from '../../lib/html.js';
import { preferredEncoding } from '../../plugins/compression.js';
import { renderIndexHtml } from './page-meta.js';
import { APP_ICON_FILES, appManifest, renderAppIcon } from './app-manifest.js';
import type { WebService } from './web.service.js';

export interface WebRoutesOptions {
  service: WebService;
  edition: Edition;
  /** The built web app (apps/web/dist); null for an API-only server. */
  distDir: string | null;
}

/** How many card pictures of `/` are preloaded: those on a phone's first screen (FIRST_SCREEN_CARDS on the web). */
export const PRELOADED_CARD_PICTURES = 4;
/** How long one reading of the first catalogue page serves the pages of `/`. */
const CATALOGUE_CACHE_MS = 10_000;

/**
 * What `/` gets in its `<head>` for a first screen without waiting for the API: the guest's
 * first catalogue page as JSON (the web app starts from it instead of asking for it after its
 * scripts have run) and a preload of the first cards' pictures (fetched while the scripts
 * download).
 */
const preloadPicture = (url: string) =>
  `<link rel="preload" as="image" fetchpriority="high" href="${escapeHtml(url)}">`;

/** A card's picture: the preload names the same `srcset` and `sizes` as the card's `<img>`. */
const preloadCardPicture = (url: string) => {
  const srcset = cardPictureSrcSet(url);
  if (!srcset) return preloadPicture(url);
  return `<link rel="preload" as="image" fetchpriority="high" href="${escapeHtml(url)}" imagesrcset="${escapeHtml(srcset)}" imagesizes="${escapeHtml(CARD_PICTURE_SIZES)}">`;
};

export function catalogueHead(page: BotList): string {
  const pictures = page.results
    .slice(0, PRELOADED_CARD_PICTURES)
    .map((bot) => bot.avatar_url)
    .filter((url): url is string => typeof url === 'string' && url.length > 0)
    .map(preloadCardPicture);
  return `${pictures.join('')}<script type="application/json" id="${INLINE_CATALOGUE_ID}">${scriptJson(page)}</script>`;
}

const NOT_WEB_PAGE = /^\/(api|metrics|dev)(\/|$)/;

/** The route module each page renders (apps/web/src/app/router.tsx): its chunks are preloaded. */
const PAGE_MODULES: Partial<Record<string, string>> = {
  '/': 'src/app/routes/explore.tsx',
  '/:slug': 'src/app/routes/character-chat.tsx',
};

type ViteManifest = Record<string, { file: string; isEntry?: boolean; imports?: string[] }>;

/**
 * `<link rel="modulepreload">` tags per route pattern, from the build's Vite manifest: the
 * page's chunk and the chunks it imports, less those index.html already loads. The browser
 * then fetches the page's code together with the entry instead of after it has run — one
 * round trip less on a slow phone.
 */
export function pagePreloads(distDir: string): Map<string, string> {
  const tags = new Map<string, string>();
  let manifest: ViteManifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(distDir, '.vite', 'manifest.json'), 'utf8')) as ViteManifest;
  } catch {
    return tags;
  }
  const collect = (key: string, into: Set<string>) => {
    const chunk = manifest[key];
    if (!chunk || into.has(chunk.file)) return;
    into.add(chunk.file);
    for (const imported of chunk.imports ?? []) collect(imported, into);
  };
  const entry = new Set<string>();
  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (entryKey) collect(entryKey, entry);
  for (const [pattern, module] of Object.entries(PAGE_MODULES)) {
    const files = new Set<string>();
    collect(module!, files);
    const links = [...files]
      .filter((file) => !entry.has(file) && /^assets\/[\w.-]+\.js$/.test(file))
      .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`);
    if (links.length) tags.set(pattern, links.join(''));
  }
  return tags;
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** br when accepted, else gzip, else none (q=0 refuses): the same choice as for JSON answers. */
export const pageEncoding = preferredEncoding;

function compressPage(html: string, encoding: 'br' | 'gzip'): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } })
    : gzip(html, { level: 6 });
}

/**
 * Serves the built web app from the same port as the API: hashed assets with long caching,
 * and index.html for every page with its title, description and Open Graph tags written in.
 */
const webRoutesPlugin: FastifyPluginAsync<WebRoutesOptions> = async (app, options) => {
  const indexPath = options.distDir ? path.join(options.distDir, 'index.html') : null;
  const template = indexPath && fs.existsSync(indexPath) ? fs.readFileSync(indexPath, 'utf8') : null;
  const preloads = options.distDir ? pagePreloads(options.distDir) : new Map<string, string>();

  // The first catalogue page in each language (the official characters' texts are translated),
  // read at most every 10 s for all the pages of `/` (the same for every guest of a language); a
  // failure leaves it out (the web app then asks the API as before).
  const catalogues = new Map<Locale, { at: number; head: Promise<string> }>();
  const firstCatalogueHead = (locale: Locale): Promise<string> => {
    let catalogue = catalogues.get(locale);
    if (!catalogue || Date.now() - catalogue.at > CATALOGUE_CACHE_MS) {
      const head = options.service.firstCataloguePage(locale).then(catalogueHead, (error: unknown) => {
        app.log.warn({ err: error }, 'The first catalogue page could not be read for /');
        catalogues.delete(locale);
        return '';
      });
      catalogue = { at: Date.now(), head };
      catalogues.set(locale, catalogue);
    }
    return catalogue.head;
  };

  // The installable app: the manifest and icons in the edition's colours (drawn once per process).
  const manifest = JSON.stringify(appManifest(options.edition));
  app.get('/manifest.webmanifest', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .header('content-type', 'application/manifest+json')
      .header('cache-control', 'public, max-age=3600')
      .send(manifest),
  );
  const icons = new Map<string, Promise<Buffer | null>>();
  app.get<{ Params: { file: string } }>('/icons/:file', { schema: { hide: true } }, async (request, reply) => {
    const { file } = request.params;
    if (!APP_ICON_FILES.test(file)) throw notFound();
    if (!icons.has(file)) icons.set(file, renderAppIcon(options.edition, file));
    const png = await icons.get(file)!;
    if (!png) throw notFound();
    return reply.header('content-type', 'image/png').header('cache-control', 'public, max-age=86400').send(png);
  });

  if (template && options.distDir) {
    await app.register(fastifyStatic, {
      root: options.distDir,
      index: false,
      wildcard: false,
      // The build writes file.br and file.gz beside each text file (apps/web/vite.config.ts,
      // precompressDir): sent as they are, chosen from Accept-Encoding (br before gzip, the
      // file itself when neither is accepted), with `Vary: Accept-Encoding`.
      preCompressed: true,
      setHeaders: (reply, filePath) => {
        const relative = path.relative(options.distDir!, filePath);
        // Files under assets/ carry a hash of their content in the name: they never change.
        // The service worker is always asked again, so that a new version is found at once.
        reply.header(
          'cache-control',
          relative.startsWith(`assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : relative === 'sw.js'
              ? 'no-cache'
              : 'public, max-age=300',
        );
      },
    });
  } else {
    app.log.warn('The web app is not built: serving the API only (run `npm run build`).');
  }

  async function sendPage(request: FastifyRequest, reply: FastifyReply) {
    if (!template) throw notFound();
    const url = new URL(request.url, 'http://local');
    const cookieLang = toLocale(/(?:^|;\s*)lang=([^;]+)/.exec(request.headers.cookie ?? '')?.[1]);
    const locale = cookieLang ?? negotiateLocale(request.headers['accept-language']);
    const meta = await options.service.pageMeta(url.pathname, locale);
    const route = matchWebRoute(url.pathname);
    const pagePreload = route ? preloads.get(route.pattern) : undefined;
    const rendered = renderIndexHtml(template, meta, {
      editionId: options.edition.id,
      lang: LOCALE_HTML_LANG[locale],
      siteName: options.edition.name,
    });
    let inlined = '';
    if (route?.pattern === '/' && meta.status === 200) inlined = await firstCatalogueHead(locale);
    else if (route?.pattern === '/:slug' && meta.status === 200 && route.params.slug) {
      // The character's picture downloads with the scripts instead of after they have run.
      const picture = await options.service.characterPicture(route.params.slug).catch(() => null);
      if (picture) inlined = preloadPicture(picture);
    }
    const head = `${pagePreload ?? ''}${inlined}`;
    const html = head ? insertLiteral(rendered, '</head>', `${head}</head>`) : rendered;
    const encoding = pageEncoding(request.headers['accept-encoding']);
    reply
      .status(meta.status)
      .header('content-type', 'text/html; charset=utf-8')
      // Always asked again (it names the current hashed assets), answered from the template.
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-encoding');
    if (!encoding || request.method === 'HEAD') return reply.send(html);
    return reply.header('content-encoding', encoding).send(await compressPage(html, encoding));
  }

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !NOT_WEB_PAGE.test(pathname) &&
      !/\.[a-z0-9]+$/i.test(pathname);
    if (isPage && template) return sendPage(request, reply);
    throw notFound();
  });
};

/** Registered at the root so its not-found handler covers every path. */
export const webRoutes = fp(webRoutesPlugin, { name: 'web-routes' });
