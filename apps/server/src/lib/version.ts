import fs from 'node:fs';
import path from 'node:path';
import { serverRoot } from './paths.js';

let version: string | undefined;

/** The server package's version, read once. */
export function serverVersion(): string {
  if (!version) {
    const manifest = JSON.parse(fs.readFileSync(path.join(serverRoot(), 'package.json'), 'utf8')) as {
      version?: string;
    };
    version = manifest.version ?? '0.0.0';
  }
  return version;
}
