import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as shared from './index.js';
import * as contractConstants from './contract/constants.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The relative imports of a module, followed transitively, with the module itself. */
function moduleGraph(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = fs.readFileSync(file, 'utf8');
  for (const match of text.matchAll(/from\s+'(\.[^']+)'/g)) {
    moduleGraph(path.resolve(path.dirname(file), match[1]!.replace(/\.js$/, '.ts')), seen);
  }
  return seen;
}

/**
 * The landing page reads these modules' constants; they must not bring zod into its
 * JavaScript (e2e/landing-bundle.e2e.ts checks the built chunks themselves).
 */
describe('zod-free modules', () => {
  for (const module of ['contract/constants.ts', 'constants.ts', 'routes.ts', 'editions.ts']) {
    it(`${module} imports no zod, directly or through its imports`, () => {
      for (const file of moduleGraph(path.join(here, module))) {
        expect(fs.readFileSync(file, 'utf8'), path.relative(here, file)).not.toMatch(/from\s+'zod/);
      }
    });
  }

  it('the barrel still offers the moved constants, the same values', () => {
    expect(shared.BOT_FILTER_TAGS).toBe(contractConstants.BOT_FILTER_TAGS);
    expect(shared.BOT_LIMITS).toBe(contractConstants.BOT_LIMITS);
    expect(shared.BOT_FILTER_TAGS).toEqual(['official', 'custom', 'anime', 'realistic']);
  });
});
