import type { Core } from '../../core.js';
import { defineModule } from '../../lib/module.js';
import { webRoutes } from './web.routes.js';
import { WebService, type WebBots } from './web.service.js';

export type WebModuleDeps = Pick<Core, 'config' | 'db' | 'edition'> & {
  /** The characters the pages show (the bots module's service). */
  bots: WebBots;
  /** The built web app folder; null for API only. */
  webDistDir: string | null;
};

/**
 * The web module: the built web app from the API's port, each page's index.html with its
 * metadata and first screen written in. Registered last: its not-found handler serves the
 * pages of every path no route took.
 */
export const webModule = defineModule<WebModuleDeps>('web', async (app, deps) => {
  const service = new WebService({
    ...deps,
    publicUrl: deps.config.PUBLIC_URL,
  });
  await app.register(webRoutes, { service, edition: deps.edition, distDir: deps.webDistDir });
});

export { WebService, type WebBots, type WebServiceDeps } from './web.service.js';
/** A page's metadata and its index.html (pure; the admin console's blog test renders a post's page). */
export { renderIndexHtml, resolvePageMeta, type PageMeta, type PageReads } from './page-meta.js';
