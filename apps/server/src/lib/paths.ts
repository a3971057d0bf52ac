import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let cachedRoot: string | undefined;

/**
 * The server package's folder, found from this file whether it runs from `src/` (tsx,
 * Vitest) or from the bundle in `dist/`.
 */
export function serverRoot(): string {
  if (cachedRoot) return cachedRoot;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      const { name } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string };
      if (name === '@reverie/server') return (cachedRoot = dir);
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('Cannot find the @reverie/server package folder');
    dir = parent;
  }
}

export const migrationsDir = () => path.join(serverRoot(), 'drizzle');
export const repoRoot = () => path.resolve(serverRoot(), '../..');
