// The JavaScript a first visit to `/` downloads before the app can start: the entry module
// and every chunk index.html tells the browser to preload, each gzipped at level 9 (what a
// well-configured server or CDN sends), read from the built apps/web/dist.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

export const name = 'landing-js';
export const description = 'gzipped JavaScript of the landing route / (entry + modulepreload)';
export const order = 30;

const TARGET_KB = 150;

/** The entry module and modulepreload URLs of a built index.html, in document order. */
export function landingScripts(html) {
  const urls = [];
  for (const tag of html.match(/<(script|link)\b[^>]*>/gi) ?? []) {
    const attr = (name) => new RegExp(`\\b${name}\\s*=\\s*["']([^"']+)["']`, 'i').exec(tag)?.[1];
    if (/^<script/i.test(tag) && attr('type') === 'module' && attr('src')) urls.push(attr('src'));
    if (/^<link/i.test(tag) && attr('rel') === 'modulepreload' && attr('href')) urls.push(attr('href'));
  }
  return [...new Set(urls)];
}

const gzipSize = (buffer) => zlib.gzipSync(buffer, { level: 9 }).length;

/** @param {{ repoRoot: string, log: Function }} ctx */
export async function run({ repoRoot, log }) {
  const dist = path.join(repoRoot, 'apps/web/dist');
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const files = landingScripts(html).map((url) => {
    const file = path.join(dist, new URL(url, 'http://x/').pathname);
    const content = fs.readFileSync(file);
    return { url, raw: content.length, gzip: gzipSize(content) };
  });
  if (!files.length) throw new Error('no entry script found in apps/web/dist/index.html');
  for (const file of [...files].sort((a, b) => b.gzip - a.gzip)) {
    log(
      `${file.url.padEnd(42)} ${(file.raw / 1000).toFixed(1).padStart(7)} kB raw  ${(file.gzip / 1000).toFixed(1).padStart(6)} kB gzip`,
    );
  }
  const sum = (key) => files.reduce((total, file) => total + file[key], 0);
  return [
    {
      label: `landing JS, gzip -9 (${files.length} files)`,
      value: sum('gzip') / 1000,
      unit: 'kB',
      target: { max: TARGET_KB },
      note: '1 kB = 1000 bytes',
    },
    { label: 'landing JS, uncompressed', value: sum('raw') / 1000, unit: 'kB' },
  ];
}
