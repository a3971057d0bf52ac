// Bundles the server into dist/ with esbuild: our code and @reverie/shared in one file,
// npm packages left external (installed beside it). Fast to start, no TypeScript at run time.
import { build } from 'esbuild';
import fs from 'node:fs';

const manifest = JSON.parse(fs.readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(manifest.dependencies ?? {}).filter((name) => name !== '@reverie/shared');

const entries = [
  'src/server.ts',
  'src/cli/migrate.ts',
  'src/cli/seed.ts',
  'src/cli/admin-create.ts',
  'src/cli/admin-ban.ts',
  'src/cli/fit-voices.ts',
].filter((file) => fs.existsSync(file));

await build({
  entryPoints: entries,
  outdir: 'dist',
  outbase: 'src',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external,
  logLevel: 'warning',
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
});
// The audio worker thread (plain JavaScript) is loaded by URL beside server.js.
fs.copyFileSync('src/providers/tts/audio-worker.mjs', 'dist/audio-worker.mjs');
// So is the picture judge's worker thread, with the model loader it imports.
fs.copyFileSync('src/providers/image-moderation/judge-worker.mjs', 'dist/judge-worker.mjs');
fs.copyFileSync('src/providers/image-moderation/models.mjs', 'dist/models.mjs');
// The style engine's cel worker thread is bundled beside server.js with what it imports
// (cel.mjs, and lib/seeded-random.mjs that the server shares).
await build({
  entryPoints: ['src/modules/transforms/styles/cel-worker.mjs'],
  outfile: 'dist/cel-worker.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
});
console.log(`server built: ${entries.join(', ')} -> dist/`);
