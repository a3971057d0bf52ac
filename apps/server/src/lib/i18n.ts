import { DEFAULT_LOCALE, type Locale } from '@reverie/shared';
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

/**
 * Server-side translation from the same files the web app uses: the locale's text, then
 * English, then the key itself (spec §8). `{{name}}` placeholders are filled from `vars`.
 */
export function translate(locale: Locale, key: string, vars: Record<string, string | number> = {}): string {
  const text = lookup(DICTIONARIES[locale], key) ?? lookup(DICTIONARIES[DEFAULT_LOCALE], key) ?? key;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, name: string) => (name in vars ? String(vars[name]) : match));
}

/** True when the English file has this key. */
export const hasTranslation = (key: string) => lookup(DICTIONARIES.en, key) !== undefined;
