import { DEFAULT_LOCALE, LOCALE_HTML_LANG, type Locale } from '@reverie/shared';
import en from '@reverie/shared/locales/en.json' with { type: 'json' };
import ch from '@reverie/shared/locales/ch.json' with { type: 'json' };
import de from '@reverie/shared/locales/de.json' with { type: 'json' };
import es from '@reverie/shared/locales/es.json' with { type: 'json' };
import ru from '@reverie/shared/locales/ru.json' with { type: 'json' };

type Tree = { [key: string]: string | Tree };
const DICTIONARIES: Record<Locale, Tree> = { en, ch, de, es, ru };

function lookup(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) {
    if (!node || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** The text of a key in one language; with a numeric `count`, the plural form it needs (i18next's `_one`, `_few`, …). */
function lookupIn(locale: Locale, key: string, count: number | undefined): string | undefined {
  const tree = DICTIONARIES[locale];
  if (count !== undefined) {
    const category = new Intl.PluralRules(LOCALE_HTML_LANG[locale]).select(count);
    const form = lookup(tree, `${key}_${category}`) ?? lookup(tree, `${key}_other`);
    if (form !== undefined) return form;
  }
  return lookup(tree, key);
}

/**
 * Server-side translation from the same files the web app uses: the locale's text, then
 * English, then the key itself (spec §8). `{{name}}` placeholders are filled from `vars`;
 * `{{name, number}}` is written with the language's grouping; a numeric `count` picks the
 * plural form as i18next does on the web (`key_one`, `key_few`, `key_many`, `key_other`).
 */
export function translate(locale: Locale, key: string, vars: Record<string, string | number> = {}): string {
  const count = typeof vars.count === 'number' ? vars.count : undefined;
  const found = lookupIn(locale, key, count);
  const text = found ?? lookupIn(DEFAULT_LOCALE, key, count) ?? key;
  const textLocale = found === undefined ? DEFAULT_LOCALE : locale;
  return text.replace(/\{\{\s*(\w+)\s*(?:,\s*(\w+)\s*)?\}\}/g, (match, name: string, format?: string) => {
    if (!(name in vars)) return match;
    const value = vars[name]!;
    return format === 'number' && typeof value === 'number'
      ? new Intl.NumberFormat(LOCALE_HTML_LANG[textLocale]).format(value)
      : String(value);
  });
}

/** True when the English file has this key. */
export const hasTranslation = (key: string) => lookup(DICTIONARIES.en, key) !== undefined;

/**
 * Each language's name in English, for the instructions of the model's prompts (the chat's
 * platform rules, the memory extraction, the journal): models follow English instructions best.
 */
export const LANGUAGE_NAMES: Record<Locale, string> = {
  en: 'English',
  ch: 'Chinese (Simplified)',
  es: 'Spanish',
  de: 'German',
  ru: 'Russian',
};
