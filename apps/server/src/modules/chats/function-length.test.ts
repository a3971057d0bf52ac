import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No function of the chats module (its non-test files) is longer than 60 lines, counted from
 * its first line to its last (issue 25): the send path stays a plan and a short execution, and
 * a long function is the sign that a step wants a name of its own.
 */
const MAX_LINES = 60;
const folder = path.dirname(fileURLToPath(import.meta.url));

/** Every function-like node of a file (declarations, methods, arrows, accessors, constructors). */
function longFunctions(file: string, text = fs.readFileSync(path.join(folder, file), 'utf8')): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > MAX_LINES) found.push(`${file}:${first + 1} ${nameOf(node)} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function nameOf(node: ts.SignatureDeclaration): string {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  return '(anonymous)';
}

const sources = (fs.readdirSync(folder, { recursive: true }) as string[])
  .map((name) => name.split(path.sep).join('/'))
  .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
  .sort();

describe(`functions of modules/chats (at most ${MAX_LINES} lines)`, () => {
  it('finds the files of the module', () => {
    expect(sources).toContain('replies.service.ts');
  });

  it.each(sources)('%s has no longer function', (file) => {
    expect(longFunctions(file)).toEqual([]);
  });

  it('fails on a function one line too long, counted from its first to its last line', () => {
    const body = (count: number) => Array.from({ length: count }, (_, i) => `  const a${i} = ${i};`).join('\n');
    const planted = (count: number) =>
      `export const f = () => {\n${body(count)}\n};\nclass C {\n  m() {\n${body(count)}\n  }\n}\n`;
    expect(longFunctions('planted.ts', planted(MAX_LINES - 2))).toEqual([]);
    expect(longFunctions('planted.ts', planted(MAX_LINES - 1))).toEqual([
      `planted.ts:1 f (${MAX_LINES + 1} lines)`,
      `planted.ts:${MAX_LINES + 3} m (${MAX_LINES + 1} lines)`,
    ]);
  });
});
