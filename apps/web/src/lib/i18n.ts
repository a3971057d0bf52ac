import i18next, { type BackendModule, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, LOCALES, LOCALE_HTML_LANG, STORAGE_KEYS, toLocale, type Locale } from '@reverie/shared';
import en from 'virtual:reverie-en-core';
import { formatNumber } from './format';
import { storage, writeCookie } from './storage';

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
  return toLocale(i18next.resolvedLanguage ?? i18next.language) ?? DEFAULT_LOCALE;
}

function applyDocumentLanguage(locale: Locale) {
  document.documentElement.lang = LOCALE_HTML_LANG[locale];
}

/**
 * Loads `/locales/{lang}.json` with fetch. (i18next-http-backend does the same but brings a
 * fetch ponyfill that would add ≈ 6 KB gzipped to the landing page.)
 */
const localeBackend: BackendModule = {
  type: 'backend',
  init: () => {},
  read(language, _namespace, callback) {
    fetch(`/locales/${encodeURIComponent(language)}.json`)
      .then(async (response) => {
        if (!response.ok) throw new Error(`locale ${language}: HTTP ${response.status}`);
        callback(null, await response.json());
      })
      .catch((error: unknown) => callback(error as Error, false));
  },
};

let ready: Promise<unknown> | null = null;

/** English sections registered before i18next was set up; added when it is. */
const lateEnglish: Record<string, unknown>[] = [];

/**
 * Adds English sections that a lazily loaded page brings with it (they are left out of the
 * bundled English to keep the landing page small; see LAZY_ENGLISH_SECTIONS in vite.config.ts).
 */
export function addEnglishTexts(sections: Record<string, unknown>): void {
  if (i18next.store) i18next.addResourceBundle('en', 'translation', sections, true, false);
  else lateEnglish.push(sections);
}

/**
 * Teaches i18next our language codes: plural rules and `{{count, number}}` go through `Intl`
 * with the BCP 47 tag of each interface language. (i18next would hand `ch` itself to
 * Intl.PluralRules, which knows no such language and falls back to English rules: "1" would
 * look for a `_one` form Chinese does not have and show English.)
 */
export function teachLanguageCodes(instance: I18n): void {
  const resolver = instance.services.pluralResolver as {
    getRule: (code: string, options?: object) => Intl.PluralRules | undefined;
  };
  if (resolver && !(resolver as { taught?: boolean }).taught) {
    const getRule = resolver.getRule.bind(resolver);
    resolver.getRule = (code, options) => {
      const locale = toLocale(code);
      return getRule(locale ? LOCALE_HTML_LANG[locale] : code, options);
    };
    (resolver as { taught?: boolean }).taught = true;
  }
  instance.services.formatter?.add('number', (value: unknown, lng: string | undefined) =>
    formatNumber(Number(value), toLocale(lng) ?? DEFAULT_LOCALE),
  );
}

/**
 * English is bundled; the other languages are fetched from /locales/{lang}.json. A text
 * missing in a language falls back to English, then to its key.
 */
export function initI18n(locale: Locale = initialLocale()): Promise<unknown> {
  if (ready) return ready;
  applyDocumentLanguage(locale);
  ready = i18next
    .use(localeBackend)
    .use(initReactI18next)
    .init({
      lng: locale,
      fallbackLng: DEFAULT_LOCALE,
      supportedLngs: [...LOCALES],
      resources: { en: { translation: Object.assign({}, en, ...lateEnglish) } },
      partialBundledLanguages: true,
      ns: ['translation'],
      defaultNS: 'translation',
      interpolation: { escapeValue: false },
      returnNull: false,
      react: { useSuspense: false },
    });
  teachLanguageCodes(i18next);
  return ready;
}

/** Saves the choice, loads the language file and switches the interface. */
export async function changeLocale(locale: Locale): Promise<void> {
  storage.set(STORAGE_KEYS.language, locale);
  writeCookie('lang', locale, 365);
  applyDocumentLanguage(locale);
  await i18next.changeLanguage(locale);
}

export const i18n: I18n = i18next;
