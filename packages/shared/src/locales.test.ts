import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LOCALES } from './constants.js';
import { ERROR_MESSAGES, VALIDATION_MESSAGES } from './validation.js';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'locales');
type Tree = { [key: string]: string | Tree };
const load = (locale: string) => JSON.parse(fs.readFileSync(path.join(dir, `${locale}.json`), 'utf8')) as Tree;
const flatten = (tree: Tree, prefix = ''): Record<string, string> =>
  Object.fromEntries(
    Object.entries(tree).flatMap(([key, value]) =>
      typeof value === 'string' ? [[prefix + key, value]] : Object.entries(flatten(value, `${prefix}${key}.`)),
    ),
  );
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

const english = flatten(load('en'));

describe('interface texts', () => {
  for (const locale of LOCALES.filter((l) => l !== 'en')) {
    it(`${locale} has every key English has, non-empty, with the same placeholders`, () => {
      const texts = flatten(load(locale));
      const missing = Object.keys(english).filter((key) => !(key in texts));
      expect(missing, `${locale} misses keys`).toEqual([]);
      for (const [key, value] of Object.entries(english)) {
        expect(texts[key]?.trim(), `${locale}:${key} is empty`).toBeTruthy();
        expect(placeholders(texts[key]!), `${locale}:${key} placeholders`).toEqual(placeholders(value));
      }
    });
  }

  it("English validation texts are the specification's words", () => {
    for (const [key, text] of Object.entries(VALIDATION_MESSAGES)) {
      expect(english[`validation.${key}`]).toBe(text);
    }
    for (const [key, text] of Object.entries(ERROR_MESSAGES)) {
      expect(english[`errors.${key}`], `errors.${key}`).toBe(text);
    }
  });
});
