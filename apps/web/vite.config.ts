import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv, type Plugin } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));
const localesDir = path.resolve(here, '../../packages/shared/src/locales');
const FETCHED_LOCALES = ['ch', 'de', 'es', 'ru'];

/**
 * The locale files live once, in packages/shared. English is bundled; the other four are
 * served at /locales/{lang}.json in development and emitted there by the build.
 */
function localesPlugin(): Plugin {
  return {
    name: 'reverie-locales',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const match = /^\/locales\/(\w+)\.json$/.exec(req.url?.split('?')[0] ?? '');
        if (!match || !FETCHED_LOCALES.includes(match[1]!)) return next();
        res.setHeader('content-type', 'application/json');
        res.end(fs.readFileSync(path.join(localesDir, `${match[1]}.json`)));
      });
    },
    generateBundle() {
      for (const lang of FETCHED_LOCALES) {
        this.emitFile({
          type: 'asset',
          fileName: `locales/${lang}.json`,
          source: JSON.stringify(JSON.parse(fs.readFileSync(path.join(localesDir, `${lang}.json`), 'utf8'))),
        });
      }
    },
  };
}

/** When the web app runs on its own, the edition comes from VITE_APP_NAME. */
function editionPlugin(edition: string): Plugin {
  return {
    name: 'reverie-edition',
    transformIndexHtml: (html) => html.replace('data-edition="reverie"', `data-edition="${edition}"`),
  };
}

export default defineConfig(({ mode }) => {
  const env = loadEnv(mode, here, 'VITE_');
  const apiTarget = env.VITE_DEV_API_PROXY ?? 'http://localhost:3000';
  return {
    plugins: [react(), tailwindcss(), localesPlugin(), editionPlugin(env.VITE_APP_NAME ?? 'reverie')],
    server: {
      port: 5173,
      proxy: env.VITE_API_URL
        ? undefined
        : {
            '/api': apiTarget,
            '/terms.pdf': apiTarget,
            '/privacy.pdf': apiTarget,
            '/dev': apiTarget,
          },
    },
    build: {
      target: 'es2022',
      sourcemap: true,
      chunkSizeWarningLimit: 400,
    },
  };
});
