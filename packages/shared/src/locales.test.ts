import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LOCALE_HTML_LANG, LOCALES, type Locale } from './constants.js';
import { EDITION_IDS } from './editions.js';
import { PAGE_TITLE_KEYS } from './routes.js';
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
const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*(\w+)\s*(?:,\s*\w+\s*)?\}\}/g)].map((m) => m[1]).sort();

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
/** The plural forms a language needs (i18next's `key_one`, `key_few`, …), from Intl. */
const pluralForms = (locale: Locale) =>
  new Intl.PluralRules(LOCALE_HTML_LANG[locale]).resolvedOptions().pluralCategories;
/** Keys without their plural suffix: `billing.pack_desires_one` → `billing.pack_desires`. */
const baseKeys = (texts: Record<string, string>) => {
  const plural = new Set<string>();
  const plain = new Set<string>();
  for (const key of Object.keys(texts)) {
    if (PLURAL_SUFFIX.test(key)) plural.add(key.replace(PLURAL_SUFFIX, ''));
    else plain.add(key);
  }
  return { plural, plain };
};

const english = flatten(load('en'));
const englishKeys = baseKeys(english);

describe('interface texts', () => {
  for (const locale of LOCALES) {
    it(`${locale}: every plural text has the forms the language needs`, () => {
      const texts = flatten(load(locale));
      const forms: string[] = [...pluralForms(locale)];
      const englishForms: string[] = [...pluralForms('en')];
      for (const base of englishKeys.plural) {
        const present = Object.keys(texts)
          .filter(
            (key) => key.startsWith(`${base}_`) && PLURAL_SUFFIX.test(key) && key.replace(PLURAL_SUFFIX, '') === base,
          )
          .map((key) => PLURAL_SUFFIX.exec(key)![1]!)
          .sort();
        expect(present.filter((form) => forms.includes(form)).sort(), `${locale}:${base}`).toEqual([...forms].sort());
        // A form the language does not use is allowed only where English has it (so that every
        // English key has a counterpart: Chinese `_one`), and then it repeats `_other`.
        for (const extra of present.filter((form) => !forms.includes(form))) {
          expect(englishForms, `${locale}:${base}_${extra} is a form neither language uses`).toContain(extra);
          expect(texts[`${base}_${extra}`], `${locale}:${base}_${extra} repeats _other`).toBe(texts[`${base}_other`]);
        }
        expect(texts[base], `${locale}:${base} has no plain text beside its plural forms`).toBeUndefined();
      }
    });
  }

  for (const locale of LOCALES.filter((l) => l !== 'en')) {
    it(`${locale} has every key English has, non-empty, with the same placeholders`, () => {
      const texts = flatten(load(locale));
      const missing = [...englishKeys.plain].filter((key) => !(key in texts));
      expect(missing, `${locale} misses keys`).toEqual([]);
      const { plural } = baseKeys(texts);
      expect([...plural].sort(), `${locale} plural texts`).toEqual([...englishKeys.plural].sort());
      for (const [key, value] of Object.entries(english)) {
        if (PLURAL_SUFFIX.test(key)) continue;
        expect(texts[key]?.trim(), `${locale}:${key} is empty`).toBeTruthy();
        expect(placeholders(texts[key]!), `${locale}:${key} placeholders`).toEqual(placeholders(value));
      }
      for (const base of englishKeys.plural) {
        const wanted = placeholders(english[`${base}_other`]!);
        for (const [key, value] of Object.entries(texts).filter(([k]) => k.replace(PLURAL_SUFFIX, '') === base)) {
          expect(value.trim(), `${locale}:${key} is empty`).toBeTruthy();
          expect(placeholders(value), `${locale}:${key} placeholders`).toEqual(wanted);
        }
      }
    });
  }

  it("ru: the memory mark's texts never guess the character's gender (no «держал(а)»)", () => {
    const texts = flatten(load('ru'));
    for (const key of Object.keys(texts).filter((k) => k.startsWith('memories.mark'))) {
      expect(texts[key], key).not.toMatch(/\(а\)/);
    }
  });

  it('has every page title and tagline the server and the web app write', () => {
    const keys = [
      ...Object.values(PAGE_TITLE_KEYS),
      'errors.page_not_found_title',
      'pages.meta_description',
      ...EDITION_IDS.map((id) => `pages.tagline_${id}`),
    ];
    for (const key of keys) expect(english[key], key).toBeTruthy();
  });

  it("English validation texts are the specification's words", () => {
    for (const [key, text] of Object.entries(VALIDATION_MESSAGES)) {
      expect(english[`validation.${key}`]).toBe(text);
    }
    for (const [key, text] of Object.entries(ERROR_MESSAGES)) {
      expect(english[`errors.${key}`], `errors.${key}`).toBe(text);
    }
  });
});
