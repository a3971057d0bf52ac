// The suites that measure one piece of the server without starting it load its TypeScript
// sources with tsx (a dev dependency of the server, hoisted to the root).
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** A loader of apps/server files by their path in apps/server (`load('src/lib/pcm.ts')`). */
export async function serverSources(repoRoot) {
  const serverDir = path.join(repoRoot, 'apps/server');
  const { tsImport } = await import('tsx/esm/api');
  return (file) => tsImport(pathToFileURL(path.join(serverDir, file)).href, import.meta.url);
}
