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

/**
 * English sections of pages that load lazily: they stay out of the bundled English (and so
 * out of the landing page's JavaScript) and arrive with their page's chunk, which registers
 * them with `addEnglishTexts` (e.g. `features/chat/texts.ts`). Every other section is bundled.
 */
export const LAZY_ENGLISH_SECTIONS = ['chat', 'chats'];

/** `virtual:reverie-en-core`: en.json without the lazy sections. */
function englishCorePlugin(): Plugin {
  const virtualId = 'virtual:reverie-en-core';
  const resolvedId = `\0${virtualId}`;
  return {
    name: 'reverie-en-core',
    resolveId: (source) => (source === virtualId ? resolvedId : null),
    load(id) {
      if (id !== resolvedId) return null;
      const file = path.join(localesDir, 'en.json');
      this.addWatchFile(file);
      const texts = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
      for (const section of LAZY_ENGLISH_SECTIONS) delete texts[section];
      return `export default ${JSON.stringify(texts)};`;
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
    plugins: [
      react(),
      tailwindcss(),
      localesPlugin(),
      englishCorePlugin(),
      editionPlugin(env.VITE_APP_NAME ?? 'reverie'),
    ],
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
