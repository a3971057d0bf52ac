import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../src/lib/paths.js';

/**
 * docs/ARCHITECTURE.md's folder table is the map of the house: every module, provider and web
 * feature, and every top-level folder of the repository, apps/server/src and apps/web/src,
 * has a row. A folder is named when a path in the table's first column starts with it.
 */
const root = repoRoot();

/** The code spans in the first column of the table under "## The house, one line per folder". */
function mappedPaths(): string[] {
  const text = fs.readFileSync(path.join(root, 'docs/ARCHITECTURE.md'), 'utf8');
  const section = text.split(/^## /m).find((part) => part.startsWith('The house'));
  if (!section) throw new Error('docs/ARCHITECTURE.md has no "The house" section');
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...line.split('|')[1]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!));
}

/** Top-level ignore entries of .gitignore that name a folder (`data/`, `coverage/`). */
function ignoredFolders(): Set<string> {
  const lines = fs.readFileSync(path.join(root, '.gitignore'), 'utf8').split('\n');
  return new Set(lines.map((l) => l.trim().replace(/^\//, '').replace(/\/$/, '')).filter((l) => /^[\w.-]+$/.test(l)));
}

function folders(relative: string, skip = new Set<string>()): string[] {
  return fs
    .readdirSync(path.join(root, relative), { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules' && e.name !== 'dist')
    .filter((e) => !skip.has(e.name))
    .map((e) => (relative ? `${relative}/${e.name}` : e.name))
    .sort();
}

describe('docs/ARCHITECTURE.md folder table', () => {
  const mapped = mappedPaths();
  const isMapped = (folder: string) => mapped.some((p) => p.startsWith(`${folder}/`));

  it.each([
    ['the repository root', ''],
    ['apps/server/src', 'apps/server/src'],
    ['apps/server/src/modules', 'apps/server/src/modules'],
    ['apps/server/src/providers', 'apps/server/src/providers'],
    ['apps/web/src', 'apps/web/src'],
    ['apps/web/src/features', 'apps/web/src/features'],
  ])('names every folder of %s', (_label, relative) => {
    const present = folders(relative, relative === '' ? ignoredFolders() : undefined);
    expect(present.length).toBeGreaterThan(0);
    expect(present.filter((folder) => !isMapped(folder))).toEqual([]);
  });

  it('names no module, provider or feature that is gone', () => {
    const listed = mapped.filter((p) =>
      /^(apps\/server\/src\/(modules|providers)|apps\/web\/src\/features)\/[a-z-]+\/$/.test(p),
    );
    expect(listed.filter((p) => !fs.existsSync(path.join(root, p)))).toEqual([]);
  });
});
