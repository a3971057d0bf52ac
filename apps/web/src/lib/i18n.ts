import { useMemo, useSyncExternalStore } from 'react';
import { DEFAULT_LOCALE, LOCALE_HTML_LANG, STORAGE_KEYS, toLocale, type Locale } from '@reverie/shared';
import en from 'virtual:reverie-en-core';
import { formatNumber } from './format';
import { storage, writeCookie } from './storage';
import { Translator, type Texts, type TFunction, type TOptions } from './translator';

export type { TFunction, TOptions };

/** The language saved by the user, else the browser's, else English. */
export function initialLocale(): Locale {
  const saved = toLocale(storage.get(STORAGE_KEYS.language));
  if (saved) return saved;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const locale = toLocale(tag);
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}

export function currentLocale(): Locale {
  return toLocale(i18n.resolvedLanguage) ?? DEFAULT_LOCALE;
}

function applyDocumentLanguage(locale: Locale) {
  document.documentElement.lang = LOCALE_HTML_LANG[locale];
}

/** Loads `/locales/{lang}.json` (only the language chosen; English is bundled). */
async function loadLocale(language: string): Promise<Texts> {
  const response = await fetch(`/locales/${encodeURIComponent(language)}.json`);
  if (!response.ok) throw new Error(`locale ${language}: HTTP ${response.status}`);
  return (await response.json()) as Texts;
}

/**
 * A translator with our language codes: plural rules and `{{count, number}}` go through `Intl`
 * with the BCP 47 tag of each interface language (`ch` is not one: it would mean Chamorro, and
 * a "1" would look for an English `_one` form Chinese does not have).
 */
export function createTranslator(options: {
  lng: string;
  resources?: Record<string, Texts>;
  load?: (lng: string) => Promise<Texts>;
}): Translator {
  return new Translator({
    fallbackLng: DEFAULT_LOCALE,
    tag: (code) => {
      const locale = toLocale(code);
      return locale ? LOCALE_HTML_LANG[locale] : code;
    },
    formatNumber: (value, lng) => formatNumber(value, toLocale(lng) ?? DEFAULT_LOCALE),
    ...options,
  });
}

/** The app's texts: English bundled (only what the layout and the landing page show). */
export const i18n: Translator = createTranslator({
  lng: DEFAULT_LOCALE,
  resources: { [DEFAULT_LOCALE]: en as Texts },
  load: loadLocale,
});

/**
 * Adds English sections that a lazily loaded page brings with it (they are left out of the
 * bundled English to keep the landing page small; see LAZY_ENGLISH_SECTIONS in vite.config.ts).
 */
export function addEnglishTexts(sections: Record<string, unknown>): void {
  i18n.addResourceBundle(DEFAULT_LOCALE, 'translation', sections as Texts, true, false);
}

let ready: Promise<void> | null = null;

/**
 * Chooses the first language: English at once, another one once its file has loaded (a text
 * missing in a language falls back to English, then to its key).
 */
export function initI18n(locale: Locale = initialLocale()): Promise<void> {
  if (ready) return ready;
  applyDocumentLanguage(locale);
  ready = locale === DEFAULT_LOCALE ? Promise.resolve() : i18n.changeLanguage(locale);
  return ready;
}

/** Saves the choice, loads the language file and switches the interface. */
export async function changeLocale(locale: Locale): Promise<void> {
  storage.set(STORAGE_KEYS.language, locale);
  writeCookie('lang', locale, 365);
  applyDocumentLanguage(locale);
  await i18n.changeLanguage(locale);
}

const subscribeLanguage = (listener: () => void) => i18n.onLanguageChanged(listener);
const languageNow = () => i18n.resolvedLanguage;

/**
 * The texts in the interface language, re-rendering when it changes (`t` is a new function
 * then, so effects that use it run again).
 */
export function useTranslation(): { t: TFunction; i18n: Translator } {
  const language = useSyncExternalStore(subscribeLanguage, languageNow, languageNow);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new `t` per language on purpose
  const t = useMemo<TFunction>(() => (key, options) => i18n.t(key, options), [language]);
  return { t, i18n };
}
