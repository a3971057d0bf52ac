import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../src/lib/paths.js';

/**
 * docs/ARCHITECTURE.md is the map of the house, and this file keeps it true.
 *
 * 1. The folder table: every module, provider and web feature, and every top-level folder of
 *    the repository, apps/server/src and apps/web/src, has a row. A folder is named when a path
 *    in the table's first column starts with it.
 * 2. Every file or folder the map names in backticks exists. A backticked span names a file
 *    when it holds a `/` or ends in one of FILE_EXTENSIONS; these are not names and are skipped:
 *    routes and URLs (`/api/…`, `?w=…`, anything with `:`), npm packages (`@scope/name`),
 *    import specifiers (`./x`, `../x`), ESLint rule ids (`reverie/…`),
 *    placeholders (`<name>`, `{id}`, `…`), environment variables (`DATA_DIR/media`), and spans
 *    with spaces or `=`, `|`, `(`, `$`, `#`. `{a,b}` is expanded, `*` matches within one name.
 *    Where a name is looked for:
 *    - in a row whose first cell is a backticked path (the folder table), whose folder is that
 *      path (a file row: its folder; `…/<name>/`: the part before the placeholder): a bare name
 *      (no `/`) is a file at the repository root or anywhere in the row's folder or below it —
 *      so `cards.ts` in the bots row must be somewhere in modules/bots/; a path with a `/` is
 *      taken from the root, from the row's folder, from a source root (SOURCE_ROOTS), or may
 *      end a path below the row's folder;
 *    - elsewhere (prose, other tables): it must be the tail of an existing path (`runner.ts`, a
 *      file of that name anywhere; `api/send-message.ts`, a path ending so).
 * 3. Each module row (`apps/server/src/modules/<name>/`, `apps/web/src/features/<name>/`) is at
 *    most MODULE_ROW_MAX characters, the whole line; the details live in the module's doc.
 * 4. The "What lives where" table keeps its rows, and "A chat message, end to end" exists and
 *    names files that exist.
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

/** What a backticked span must end in to name a file (when it holds no `/`). */
const FILE_EXTENSIONS = [
  'ts',
  'tsx',
  'mts',
  'js',
  'mjs',
  'cjs',
  'json',
  'md',
  'css',
  'html',
  'yml',
  'yaml',
  'sql',
  'example',
];
/** Folders a path in the folder table may be written from (besides the root and its row's folder). */
const SOURCE_ROOTS = ['apps/server/src/', 'apps/server/', 'apps/web/src/', 'apps/web/', 'packages/shared/src/'];
/** The longest a module or feature row of the folder table may be (characters of the line). */
const MODULE_ROW_MAX = 300;
const MODULE_ROW = /^\| `(apps\/server\/src\/modules|apps\/web\/src\/features)\/[a-z0-9-]+\/` \|/;

/** A file or folder name the map gives, where it stands, and the folder of its table row. */
export interface Mention {
  name: string;
  line: number;
  rowFolder: string | null;
}

/** Whether a backticked span names a file or folder (see the rules at the top). */
export function namesAFile(span: string): boolean {
  if (/^([/@?]|\.{1,2}\/|reverie\/)/.test(span) || /[\s:=|()$#<>…]/.test(span)) return false;
  if (/\{[^,}]*\}/.test(span)) return false; // a placeholder such as {id}
  if (/^[A-Z][A-Z0-9_]+\//.test(span)) return false; // DATA_DIR/…
  if (span.includes('/')) return /^[\w.*{},/-]+$/.test(span);
  const ext = span.match(/\.([a-z]+)$/)?.[1];
  return ext !== undefined && FILE_EXTENSIONS.includes(ext) && /^[\w.*{},-]+$/.test(span);
}

/** The folder a table row speaks of: its first cell's path, up to a placeholder; a file's folder. */
function folderOfRow(line: string): string | null {
  const first = line.match(/^\| `([^`]+)` \|/)?.[1];
  if (!first || /^[/@?]/.test(first) || !first.includes('/')) return null;
  const upToPlaceholder = first.split(/[<{*]/)[0]!;
  if (upToPlaceholder !== first) return upToPlaceholder.replace(/[^/]*$/, '');
  return first.endsWith('/') ? first : first.replace(/[^/]*$/, '');
}

/** Every file or folder name in backticks, with its line and its row's folder. */
export function fileMentions(doc: string): Mention[] {
  const mentions: Mention[] = [];
  doc.split('\n').forEach((text, i) => {
    const rowFolder = text.startsWith('|') ? folderOfRow(text) : null;
    for (const [, span] of text.matchAll(/`([^`]+)`/g))
      if (namesAFile(span!)) mentions.push({ name: span!, line: i + 1, rowFolder });
  });
  return mentions;
}

/** `a/{b,c}.ts` → `a/b.ts`, `a/c.ts`. */
function expandBraces(name: string): string[] {
  const m = name.match(/\{([^{}]*,[^{}]*)\}/);
  if (!m) return [name];
  return m[1]!.split(',').flatMap((part) => expandBraces(name.replace(m[0], part)));
}

/** A test for one path: `*` matches within a name, a trailing `/` is dropped. */
function matcher(name: string): RegExp {
  const body = name
    .replace(/\/$/, '')
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]*');
  return new RegExp(`^${body}$`);
}

/**
 * The mentions that name nothing in `paths` (every file and folder of the repository, from its
 * root, no trailing slash), each as `line N: \`name\` (row folder) — why`.
 */
export function missingMentions(doc: string, paths: readonly string[]): string[] {
  const missing: string[] = [];
  for (const mention of fileMentions(doc)) {
    for (const name of expandBraces(mention.name)) {
      const bare = name.replace(/^\.\//, '');
      const exact = (from: string) => {
        const re = matcher(from + bare);
        return paths.some((p) => re.test(p));
      };
      const tail = (below: string) => {
        const re = matcher(bare);
        return paths.some(
          (p) => p.startsWith(below) && (re.test(p.slice(below.length)) || tailMatches(p.slice(below.length), re)),
        );
      };
      const where = `line ${mention.line}: \`${name}\``;
      const folder = mention.rowFolder;
      if (!folder) {
        if (!tail('')) missing.push(`${where} — no file or folder of the repository ends so`);
      } else if (!bare.includes('/')) {
        if (!exact('') && !tail(folder))
          missing.push(`${where} (row ${folder}) — not at the root, nor in ${folder} or below it`);
      } else if (!exact('') && !exact(folder) && !SOURCE_ROOTS.some(exact) && !tail(folder))
        missing.push(
          `${where} (row ${folder}) — not from the root, from ${folder} or below it, or from ${SOURCE_ROOTS.join(', ')}`,
        );
    }
  }
  return missing;
}

/** Whether some tail of `path` (after a `/`) matches. */
function tailMatches(path: string, re: RegExp): boolean {
  for (let i = path.indexOf('/'); i !== -1; i = path.indexOf('/', i + 1)) if (re.test(path.slice(i + 1))) return true;
  return false;
}

/** Module and feature rows longer than MODULE_ROW_MAX, as `line N: <folder> has L characters`. */
export function longModuleRows(doc: string): string[] {
  return doc.split('\n').flatMap((text, i) => {
    const length = [...text].length;
    return MODULE_ROW.test(text) && length > MODULE_ROW_MAX
      ? [`line ${i + 1}: ${text.match(/`([^`]+)`/)![1]} has ${length} characters (at most ${MODULE_ROW_MAX})`]
      : [];
  });
}

/** The text of the `## <title…>` section, or null. */
export function section(doc: string, title: string): string | null {
  return doc.split(/^## /m).find((part) => part.startsWith(title)) ?? null;
}

/** Every file and folder of the repository (ignored folders, node_modules, dist and dot folders aside). */
function repositoryPaths(): string[] {
  const skip = ignoredFolders();
  const out: string[] = [];
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const p = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name === '.git') continue;
        if (!relative && skip.has(entry.name)) continue;
        out.push(p);
        walk(p);
      } else out.push(p);
    }
  };
  walk('');
  return out;
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

describe('docs/ARCHITECTURE.md names what exists', () => {
  const doc = fs.readFileSync(path.join(root, 'docs/ARCHITECTURE.md'), 'utf8');

  it('every path and file name in backticks exists', () => {
    expect(fileMentions(doc).length).toBeGreaterThan(100);
    expect(missingMentions(doc, repositoryPaths())).toEqual([]);
  });

  it(`each module and feature row is at most ${MODULE_ROW_MAX} characters`, () => {
    expect(doc.split('\n').filter((line) => MODULE_ROW.test(line)).length).toBeGreaterThan(20);
    expect(longModuleRows(doc)).toEqual([]);
  });

  it('"What lives where" keeps its rows: process, PostgreSQL, Redis, pub/sub, storage', () => {
    const table = section(doc, 'What lives where');
    expect(table, 'the section "## What lives where"').not.toBeNull();
    const rows = table!.split('\n').filter((line) => line.startsWith('| **'));
    for (const where of ['process', 'PostgreSQL', 'Redis', 'pub/sub', 'storage'])
      expect(
        rows.some((row) => row.split('|')[1]!.includes(where)),
        where,
      ).toBe(true);
  });

  it('"A chat message, end to end" exists and names files that exist', () => {
    const chat = section(doc, 'A chat message, end to end');
    expect(chat, 'the section "## A chat message, end to end"').not.toBeNull();
    const names = fileMentions(chat!).map((m) => m.name);
    expect(names.filter((n) => /\.tsx?$/.test(n)).length).toBeGreaterThanOrEqual(8);
    expect(missingMentions(chat!, repositoryPaths())).toEqual([]);
  });
});

describe('the map checker itself', () => {
  const paths = [
    'apps',
    'apps/server',
    'apps/server/src',
    'apps/server/src/lib',
    'apps/server/src/lib/errors.ts',
    'apps/server/src/modules',
    'apps/server/src/modules/bots',
    'apps/server/src/modules/bots/card.ts',
    'apps/server/src/modules/bots/bots.routes.ts',
    'packages/shared/src/locales/en.json',
    'packages/shared/src/locales/de.json',
  ];
  const row = (text: string) =>
    `| folder | what |\n| --- | --- |\n| \`apps/server/src/modules/bots/\` | characters: ${text} |\n`;

  it('fails on a file name that does not exist, naming it, its line and its row', () => {
    expect(missingMentions(row('`card.ts`, `bots.routes.ts`, `lib/errors.ts`'), paths)).toEqual([]);
    expect(missingMentions(row('Character Card import (`cards.ts`)'), paths)).toEqual([
      'line 3: `cards.ts` (row apps/server/src/modules/bots/) — not at the root, nor in apps/server/src/modules/bots/ or below it',
    ]);
    expect(missingMentions(row('`lib/error.ts`'), paths)).toEqual([
      'line 3: `lib/error.ts` (row apps/server/src/modules/bots/) — not from the root, from apps/server/src/modules/bots/ or below it, or from ' +
        SOURCE_ROOTS.join(', '),
    ]);
    expect(missingMentions('Prose first.\n\nThe stream (`stream.ts`) and `modules/bots/card.ts`.', paths)).toEqual([
      'line 3: `stream.ts` — no file or folder of the repository ends so',
    ]);
  });

  it("a bare name must be in its row's folder, not elsewhere", () => {
    expect(missingMentions('| `apps/server/src/lib/` | `card.ts` |', paths)).toHaveLength(1);
  });

  it('skips what is not a file, expands {a,b} and matches *', () => {
    const spans =
      '`/api/chat/{id}` `../features/auth/x` `reverie/no-app-imports` `DATA_DIR/media` `@fastify/rate-limit` `<key>.blurred.webp` `app.jobs` `?w=256` `hf:`';
    expect(fileMentions(spans)).toEqual([]);
    expect(missingMentions('`packages/shared/src/locales/{en,de}.json` `modules/*/card.ts`', paths)).toEqual([]);
    expect(missingMentions('`packages/shared/src/locales/{en,ru}.json`', paths)).toEqual([
      'line 1: `packages/shared/src/locales/ru.json` — no file or folder of the repository ends so',
    ]);
  });

  it('counts the whole line of a module row', () => {
    expect(longModuleRows(row('x'.repeat(200)))).toEqual([]);
    expect(longModuleRows(row('x'.repeat(300)))).toEqual([
      `line 3: apps/server/src/modules/bots/ has ${[...row('x'.repeat(300)).split('\n')[2]!].length} characters (at most 300)`,
    ]);
  });
});
