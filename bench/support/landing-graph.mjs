// The JavaScript a first visit to `/` loads, read from the build's Vite manifest
// (apps/web/dist/.vite/manifest.json): the entry of index.html with every chunk it imports
// (the <link rel="modulepreload"> list), then the page of `/` — the lazily loaded Explore
// route — with every chunk it imports. Shared by the `landing-js` bench and
// e2e/landing-bundle.e2e.ts (which fails when zod or Radix Dialog come back into it).
import fs from 'node:fs';
import path from 'node:path';

/** The route module `/` renders (apps/web/src/app/router.tsx). */
export const LANDING_ROUTE_MODULES = ['src/app/routes/explore.tsx'];

export function readManifest(dist) {
  const file = path.join(dist, '.vite', 'manifest.json');
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: build the web app (npm run build)`);
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/**
 * @returns {{ file: string, key: string, part: 'entry' | 'route', via: string }[]} every
 *   JavaScript chunk of the landing page, each once, entry chunks first.
 */
export function landingChunks(dist, routes = LANDING_ROUTE_MODULES) {
  const manifest = readManifest(dist);
  const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
  if (!entryKey) throw new Error('the Vite manifest has no entry');
  const seen = new Map();
  const walk = (key, part, via) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the Vite manifest`);
    seen.set(key, { file: chunk.file, key, part, via });
    // Static imports only: dynamic ones load later, when something asks for them.
    for (const imported of chunk.imports ?? []) walk(imported, part, key);
  };
  walk(entryKey, 'entry', 'index.html');
  for (const route of routes) walk(route, 'route', 'router');
  return [...seen.values()];
}

/** The source files (from the chunk's source map) bundled into a built chunk. */
export function chunkSources(dist, file) {
  const mapFile = path.join(dist, `${file}.map`);
  if (!fs.existsSync(mapFile)) return [];
  return JSON.parse(fs.readFileSync(mapFile, 'utf8')).sources ?? [];
}
