import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORE_ENGLISH_KEYS, ENGLISH_PARTS, LAZY_ENGLISH_SECTIONS } from '../../vite.config';

/**
 * English texts that travel with their chunks (vite.config.ts): a file that shows a text of
 * such a section loads it itself, through a module that imports `virtual:reverie-en/<section>`
 * (or a part of it). Without that, a first visit in English would show the text's key.
 */
const CHECKED = ['characters', 'errors', 'claim', 'voice', 'app', 'auth', 'scenes'];
const src = path.resolve(__dirname, '..');

/** Every source file of the app (tests left out). */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')
      ? [file]
      : [];
  });
}

const files = sources(src);
const en = JSON.parse(
  fs.readFileSync(path.resolve(src, '../../../packages/shared/src/locales/en.json'), 'utf8'),
) as Record<string, Record<string, unknown>>;

/** What the landing page's bundle holds: CORE_ENGLISH_KEYS of the lazy sections, the rest but the parts left out. */
function coreKeys(): Set<string> {
  const core = new Set<string>();
  for (const [section, texts] of Object.entries(en)) {
    const keys = LAZY_ENGLISH_SECTIONS.includes(section)
      ? (CORE_ENGLISH_KEYS[section] ?? [])
      : Object.keys(texts).filter(
          (key) =>
            !Object.entries(ENGLISH_PARTS).some(([name, part]) => name.startsWith(`${section}@`) && part.includes(key)),
        );
    for (const key of keys) core.add(`${section}.${key}`);
  }
  return core;
}
const code = new Map(files.map((file) => [file, fs.readFileSync(file, 'utf8')]));

/** The files a file imports for their effect (`import './texts';`), resolved. */
function sideImports(file: string): string[] {
  return [...code.get(file)!.matchAll(/^import '(\.[^']+)';$/gm)].flatMap(([, spec]) => {
    const base = path.resolve(path.dirname(file), spec!);
    return [`${base}.ts`, `${base}.tsx`].filter((candidate) => code.has(candidate));
  });
}

/** The English keys a file loads itself, through the text modules it imports (transitively). */
function loadedKeys(file: string, seen = new Set<string>()): Set<string> {
  const keys = new Set<string>();
  if (seen.has(file)) return keys;
  seen.add(file);
  for (const [, name] of code.get(file)!.matchAll(/from 'virtual:reverie-en\/([a-z_@]+)'/g)) {
    const [section = '', part] = name!.split('@');
    const all = part ? ENGLISH_PARTS[name!]! : Object.keys(en[section] ?? {});
    for (const key of all) keys.add(`${section}.${key}`);
  }
  for (const dep of sideImports(file)) for (const key of loadedKeys(dep, seen)) keys.add(key);
  return keys;
}

describe('English texts that travel with their chunks', () => {
  it('are loaded by every file that shows them', () => {
    const core = coreKeys();
    const missing: string[] = [];
    for (const file of files) {
      const text = code
        .get(file)!
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      const used = [...text.matchAll(/['`]([a-z_]+)\.([a-z_]+|\$\{)/g)]
        .filter(([, section]) => CHECKED.includes(section!))
        .map(([, section, key]) => `${section}.${key === '${' ? '*' : key}`);
      if (used.length === 0) continue;
      const loaded = loadedKeys(file);
      const sections = new Set([...loaded].filter((k) => !k.includes('@')).map((k) => k.split('.')[0]));
      for (const key of used) {
        const ok = key.endsWith('.*')
          ? sections.has(key.split('.')[0])
          : [key, `${key}_one`].some((name) => loaded.has(name) || core.has(name));
        if (!ok) missing.push(`${path.relative(src, file)}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
