import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const here = path.dirname(fileURLToPath(import.meta.url));

/** react-router's production build, beside the development one its exports name. */
function reactRouterProduction(): string {
  const manifest = createRequire(import.meta.url).resolve('react-router/package.json');
  return path.join(path.dirname(manifest), 'dist/production/index.mjs');
}
const localesDir = path.resolve(here, '../../packages/shared/src/locales');
const FETCHED_LOCALES = ['ch', 'de', 'es', 'ru'];

/**
 * Sections of the locale files that only the server reads (e-mails, the admin CLI): the web
 * app never shows them, so they are left out of the bundled English and of the fetched
 * languages. (`grep -rn "email\.\|admin_cli" apps/web/src` finds no text key of theirs.)
 * The chat's safety notices (`chat_safety`) are written on the web from their kind, in the
 * reader's current language: a lazy section that comes with the chat.
 */
export const SERVER_ONLY_SECTIONS = ['email', 'admin_cli', 'push', 'data_export'];

/** A locale file without the server-only sections. */
function readWebTexts(lang: string): Record<string, unknown> {
  const texts = JSON.parse(fs.readFileSync(path.join(localesDir, `${lang}.json`), 'utf8')) as Record<string, unknown>;
  for (const section of SERVER_ONLY_SECTIONS) delete texts[section];
  return texts;
}

/**
 * The locale files live once, in packages/shared. English is bundled; the other four are
 * served at /locales/{lang}.json in development and emitted there by the build, both without
 * the server-only sections.
 */
function localesPlugin(): Plugin {
  return {
    name: 'reverie-locales',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const match = /^\/locales\/(\w+)\.json$/.exec(req.url?.split('?')[0] ?? '');
        if (!match || !FETCHED_LOCALES.includes(match[1]!)) return next();
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(readWebTexts(match[1]!)));
      });
    },
    generateBundle() {
      for (const lang of FETCHED_LOCALES) {
        this.emitFile({
          type: 'asset',
          fileName: `locales/${lang}.json`,
          source: JSON.stringify(readWebTexts(lang)),
        });
      }
    },
  };
}

/**
 * English sections of pages and modals that load lazily: they stay out of the bundled English
 * (and so out of the landing page's JavaScript) and arrive with their page's or modal's chunk,
 * which registers them with `addEnglishTexts` — from `virtual:reverie-en/<section>` (e.g.
 * `features/billing/texts.ts`) or from en.json (`features/chat/texts.ts`). Every other
 * section is bundled, because the layout or the landing page shows it at first paint.
 */
export const LAZY_ENGLISH_SECTIONS = [
  'chat',
  'chats',
  'chat_safety',
  'scenes',
  'characters',
  'explore',
  'auth',
  'billing',
  'blog',
  'create_character',
  'onboarding',
  'pictures',
  'settings',
  'validation',
  'calls',
  'admin',
  'transform',
  'takedown',
  'memories',
  'companion',
  'errors',
  'claim',
  'voice',
  'lorebooks',
];

/** Texts of lazy sections that the layout shows at first paint: they stay in the core too. */
export const CORE_ENGLISH_KEYS: Record<string, string[]> = {
  // the session-ended alert (features/auth/hooks/use-auth-bootstrap.ts)
  auth: ['session_expired'],
  // app/routes/error-page.tsx (a route that fails to load shows it, so it cannot wait for a chunk)
  errors: ['page_not_found_title', 'page_not_found', 'no_route', 'server_error_title', 'server_error_text', 'go_home'],
};

/**
 * Parts of a lazy section that a first paint needs without the rest of it:
 * `virtual:reverie-en/<section>@<part>` holds only these keys (the rest of the section comes
 * with the chunks that import the whole `virtual:reverie-en/<section>`).
 */
export const ENGLISH_PARTS: Record<string, string[]> = {
  // A part of a bundled section is left out of the core: the install offer, the update toast
  // and the offline page load after the first screen (components/pwa/texts.ts).
  'app@pwa': [
    'update_ready',
    'update_reload',
    'update_later',
    'offline_title',
    'offline_text',
    'offline_empty',
    'offline_retry',
    'install_title',
    'install_text',
    'install_button',
    'install_later',
    'install_ios_text',
  ],
  // The Explore grid and its cards, the landing page (features/characters/catalogue-texts.ts).
  // "Your data archive is ready" on any page (app/layout/user-events.tsx, loaded after the first screen).
  'settings@alerts': ['data_ready_alert', 'data_failed_alert'],
  'characters@catalogue': [
    'avatar_alt',
    'create_cta',
    'empty',
    'end',
    'grid_label',
    'load_error',
    'loading_more',
    'official',
    'private',
  ],
};

/**
 * `virtual:reverie-en-core`: en.json without the lazy (but with CORE_ENGLISH_KEYS) and the
 * server-only sections;
 * `virtual:reverie-en/<section>`: one lazy section, so that each chunk brings only its own.
 */
function englishCorePlugin(): Plugin {
  const coreId = 'virtual:reverie-en-core';
  const sectionPrefix = 'virtual:reverie-en/';
  const file = path.join(localesDir, 'en.json');
  return {
    name: 'reverie-en-core',
    resolveId: (source) => (source === coreId || source.startsWith(sectionPrefix) ? `\0${source}` : null),
    load(id) {
      if (!id.startsWith('\0virtual:reverie-en')) return null;
      this.addWatchFile(file);
      const texts = readWebTexts('en');
      if (id === `\0${coreId}`) {
        for (const section of LAZY_ENGLISH_SECTIONS) {
          const keep = CORE_ENGLISH_KEYS[section];
          const all = texts[section] as Record<string, unknown>;
          if (keep) texts[section] = Object.fromEntries(keep.map((key) => [key, all[key]]));
          else delete texts[section];
        }
        for (const [name, keys] of Object.entries(ENGLISH_PARTS)) {
          const section = name.split('@')[0]!;
          if (LAZY_ENGLISH_SECTIONS.includes(section)) continue;
          const all = texts[section] as Record<string, unknown>;
          for (const key of keys) delete all[key];
        }
        return `export default ${JSON.stringify(texts)};`;
      }
      const name = id.slice(`\0${sectionPrefix}`.length);
      const [section = '', part] = name.split('@');
      const known = part ? Boolean(ENGLISH_PARTS[name]) : LAZY_ENGLISH_SECTIONS.includes(section);
      if (!known || !(section in texts)) {
        this.error(`${sectionPrefix}${name}: not a lazy English section or part (vite.config.ts)`);
      }
      const all = texts[section] as Record<string, unknown>;
      const keys = part ? ENGLISH_PARTS[name]! : Object.keys(all);
      return `export default ${JSON.stringify(Object.fromEntries(keys.map((key) => [key, all[key]])))};`;
    },
  };
}

/** Files worth compressing: text. Pictures and fonts are compressed already; source maps are for developers. */
const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|txt|xml|webmanifest)$/;
/** Below this size a compressed copy saves less than its headers cost. */
const COMPRESS_MIN_BYTES = 1024;

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) beside every
 * compressible file of the build, when smaller, so the server sends them as they are
 * (@fastify/static `preCompressed`, docs/operations.md "Compression and caching") instead of
 * the uncompressed file or compressing on every request. Answers how many files it compressed.
 */
export async function precompressDir(dir: string): Promise<number> {
  const brotli = (data: Buffer) =>
    new Promise<Buffer>((resolve, reject) =>
      zlib.brotliCompress(
        data,
        {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
          },
        },
        (error, out) => (error ? reject(error) : resolve(out)),
      ),
    );
  const gzip = (data: Buffer) =>
    new Promise<Buffer>((resolve, reject) =>
      zlib.gzip(data, { level: 9 }, (error, out) => (error ? reject(error) : resolve(out))),
    );
  const files = fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => !file.split(path.sep).some((part) => part.startsWith('.')) && COMPRESSIBLE.test(file))
    .map((file) => path.join(dir, file))
    .filter((file) => fs.statSync(file).isFile() && fs.statSync(file).size >= COMPRESS_MIN_BYTES);
  await Promise.all(
    files.map(async (file) => {
      const data = fs.readFileSync(file);
      const [br, gz] = await Promise.all([brotli(data), gzip(data)]);
      if (br.length < data.length) fs.writeFileSync(`${file}.br`, br);
      if (gz.length < data.length) fs.writeFileSync(`${file}.gz`, gz);
    }),
  );
  return files.length;
}

/** Precompresses the build once Vite has written it (not in development). */
function precompressPlugin(): Plugin {
  let outDir = '';
  return {
    name: 'reverie-precompress',
    apply: 'build',
    configResolved: (config) => {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const started = Date.now();
      const count = await precompressDir(outDir);
      this.info?.(`precompressed ${count} files (brotli + gzip) in ${Date.now() - started} ms`);
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
    // react-router's package exports only its development build (with its development warnings)
    // to bundlers; a production build takes its production build instead (upstream
    // remix-run/react-router#12532, #14102). Tests and the dev server keep the development one.
    resolve: mode === 'production' ? { alias: [{ find: /^react-router$/, replacement: reactRouterProduction() }] } : {},
    plugins: [
      react(),
      tailwindcss(),
      localesPlugin(),
      englishCorePlugin(),
      editionPlugin(env.VITE_APP_NAME ?? 'reverie'),
      // The service worker (src/sw.ts; docs/companion.md "Push and the app"): Workbox precaches
      // the app shell; the manifest and icons are the server's, per edition (modules/web).
      VitePWA({
        strategies: 'injectManifest',
        srcDir: 'src',
        filename: 'sw.ts',
        injectRegister: false,
        manifest: false,
        injectManifest: {
          // The shell: the page, its scripts and styles; not the admin console nor the source maps.
          globPatterns: ['index.html', 'favicon.svg', 'assets/*.{js,css}'],
          globIgnores: ['**/*.map', 'assets/admin*'],
          maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
        },
        devOptions: { enabled: false },
      }),
      precompressPlugin(),
    ],
    server: {
      port: 5173,
      proxy: env.VITE_API_URL
        ? undefined
        : {
            '/api': { target: apiTarget, ws: true },
            '/terms.pdf': apiTarget,
            '/privacy.pdf': apiTarget,
            '/dev': apiTarget,
            '/manifest.webmanifest': apiTarget,
            '/icons': apiTarget,
          },
    },
    build: {
      target: 'es2022',
      sourcemap: true,
      // .vite/manifest.json: the chunk graph the landing-js bench and the no-zod test walk.
      manifest: true,
      chunkSizeWarningLimit: 400,
      rolldownOptions: {
        output: {
          codeSplitting: {
            groups: [
              // The framework every page runs on, in one file: split into the pieces each
              // lazy chunk happens to share, it compressed worse (the landing-js bench).
              {
                name: 'framework',
                test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack[\\/](query-core|react-query))[\\/]/,
              },
              // The app's core that the first page runs and most lazy pages share (the API
              // client, storage, texts, query keys, …): one file instead of a small one each.
              {
                name: 'core',
                test: /src[\\/]lib[\\/](api-client|storage|i18n|translator|config|query-keys|analytics|return-path|media)\.tsx?$/,
              },
            ],
          },
        },
      },
    },
  };
});
