// The JavaScript a first visit to `/` downloads: the entry module and every chunk index.html
// tells the browser to preload, AND the chunks of the page `/` then loads (the Explore route
// and its imports), read from the build's Vite manifest. Each file is gzipped at level 9
// (the .gz the build writes beside it and the server sends; brotli, sent to browsers that
// accept it, is smaller still and reported for reference).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { landingChunks } from '../support/landing-graph.mjs';

export const name = 'landing-js';
export const description = 'gzipped JavaScript of the landing route / (entry + modulepreload + the page of /)';
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
const brotliSize = (buffer) =>
  zlib.brotliCompressSync(buffer, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

/** @param {{ repoRoot: string, log: Function }} ctx */
export async function run({ repoRoot, log }) {
  const dist = path.join(repoRoot, 'apps/web/dist');
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const chunks = landingChunks(dist);
  // index.html and the manifest must agree on the entry's preloads.
  const inHtml = landingScripts(html).map((url) => new URL(url, 'http://x/').pathname.slice(1));
  const entryFiles = chunks.filter((chunk) => chunk.part === 'entry').map((chunk) => chunk.file);
  const missing = inHtml.filter((file) => !entryFiles.includes(file));
  if (missing.length)
    throw new Error(`index.html loads ${missing.join(', ')}, which the manifest's entry does not import`);

  const files = chunks.map((chunk) => {
    const content = fs.readFileSync(path.join(dist, chunk.file));
    return { ...chunk, raw: content.length, gzip: gzipSize(content), br: brotliSize(content) };
  });
  for (const file of [...files].sort((a, b) => b.gzip - a.gzip)) {
    log(
      `${file.part.padEnd(5)} ${file.file.padEnd(44)} ${(file.raw / 1000).toFixed(1).padStart(7)} kB raw  ${(file.gzip / 1000).toFixed(1).padStart(6)} kB gzip  ${(file.br / 1000).toFixed(1).padStart(6)} kB br`,
    );
  }
  const sum = (key, part) =>
    files.filter((file) => !part || file.part === part).reduce((total, file) => total + file[key], 0) / 1000;
  return [
    {
      label: `landing JS of /, gzip -9 (${files.length} files: entry, preloads, the page)`,
      value: sum('gzip'),
      unit: 'kB',
      target: { max: TARGET_KB },
      note: '1 kB = 1000 bytes',
    },
    { label: 'of which the entry and its modulepreloads', value: sum('gzip', 'entry'), unit: 'kB' },
    { label: 'of which the page of / (Explore route chunks)', value: sum('gzip', 'route'), unit: 'kB' },
    { label: 'landing JS of /, brotli 11 (what browsers get)', value: sum('br'), unit: 'kB' },
    { label: 'landing JS of /, uncompressed', value: sum('raw'), unit: 'kB' },
  ];
}
