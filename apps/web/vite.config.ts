import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv, type Plugin } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));
const localesDir = path.resolve(here, '../../packages/shared/src/locales');
const FETCHED_LOCALES = ['ch', 'de', 'es', 'ru'];

/**
 * Sections of the locale files that only the server reads (e-mails, the admin CLI): the web
 * app never shows them, so they are left out of the bundled English and of the fetched
 * languages. (`grep -rn "email\.\|admin_cli" apps/web/src` finds no text key of theirs.)
 * The chat's safety notices (`chat_safety`) are written on the web from their kind, in the
 * reader's current language: a lazy section that comes with the chat.
 */
export const SERVER_ONLY_SECTIONS = ['email', 'admin_cli'];

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
];

/** Texts of lazy sections that the layout shows at first paint: they stay in the core too. */
export const CORE_ENGLISH_KEYS: Record<string, string[]> = {
  // features/auth/components/verify-email-banner.tsx; the session-ended alert (hooks/use-auth-bootstrap.ts)
  auth: ['verify_banner', 'verify_banner_action', 'session_expired'],
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
        return `export default ${JSON.stringify(texts)};`;
      }
      const section = id.slice(`\0${sectionPrefix}`.length);
      if (!LAZY_ENGLISH_SECTIONS.includes(section) || !(section in texts)) {
        this.error(`${sectionPrefix}${section}: not a lazy English section (LAZY_ENGLISH_SECTIONS in vite.config.ts)`);
      }
      return `export default ${JSON.stringify(texts[section])};`;
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
    plugins: [
      react(),
      tailwindcss(),
      localesPlugin(),
      englishCorePlugin(),
      editionPlugin(env.VITE_APP_NAME ?? 'reverie'),
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
          },
    },
    build: {
      target: 'es2022',
      sourcemap: true,
      // .vite/manifest.json: the chunk graph the landing-js bench and the no-zod test walk.
      manifest: true,
      chunkSizeWarningLimit: 400,
    },
  };
});
