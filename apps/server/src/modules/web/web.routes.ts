import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LOCALE_HTML_LANG, negotiateLocale, toLocale, type Edition } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import { renderIndexHtml, resolvePageMeta } from './page-meta.js';

export interface WebRoutesOptions {
  db: Database;
  edition: Edition;
  publicUrl: string;
  /** The built web app (apps/web/dist); null for an API-only server. */
  distDir: string | null;
}

const NOT_WEB_PAGE = /^\/(api|metrics|dev)(\/|$)/;

/**
 * Serves the built web app from the same port as the API: hashed assets with long caching,
 * and index.html for every page with its title, description and Open Graph tags written in.
 */
const webRoutesPlugin: FastifyPluginAsync<WebRoutesOptions> = async (app, options) => {
  const indexPath = options.distDir ? path.join(options.distDir, 'index.html') : null;
  const template = indexPath && fs.existsSync(indexPath) ? fs.readFileSync(indexPath, 'utf8') : null;

  if (template && options.distDir) {
    await app.register(fastifyStatic, {
      root: options.distDir,
      index: false,
      wildcard: false,
      setHeaders: (reply, filePath) => {
        const relative = path.relative(options.distDir!, filePath);
        reply.header(
          'cache-control',
          relative.startsWith(`assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
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
    const meta = await resolvePageMeta(options.db, {
      edition: options.edition,
      publicUrl: options.publicUrl,
      pathname: url.pathname,
      locale,
    });
    const html = renderIndexHtml(template, meta, {
      editionId: options.edition.id,
      lang: LOCALE_HTML_LANG[locale],
      siteName: options.edition.name,
    });
    return reply
      .status(meta.status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(html);
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
export const webRoutes = fp(webRoutesPlugin, { name: 'web' });
