/**
 * The interface texts' engine (replaces i18next, ≈ 16 kB gzipped on the landing page, of which
 * the app used a few calls): nested keys (`nav.explore`), `{{name}}` and `{{count, number}}`
 * placeholders, plural forms by `Intl.PluralRules` (`key_one`, `key_few`, `key_many`,
 * `key_other`, as in the locale files), a fallback language, `defaultValue`, a language loaded
 * when it is first chosen. Pure: no React (the hook is `useTranslation` in `i18n.ts`).
 */
export type Texts = { [key: string]: string | Texts };

export type TOptions = {
  count?: number;
  /** Another language than the current one for this text. */
  lng?: string;
  /** The text when the key is missing in every language (placeholders filled in). */
  defaultValue?: string;
  [name: string]: unknown;
};

/** A string as the second argument is the default value. */
export type TFunction = (key: string, options?: TOptions | string) => string;

export interface TranslatorOptions {
  lng: string;
  fallbackLng: string;
  resources?: Record<string, Texts>;
  /** The BCP 47 tag of a language code, for plural rules (`ch` → `zh-CN`). */
  tag?: (lng: string) => string;
  /** `{{x, number}}`. */
  formatNumber?: (value: number, lng: string) => string;
  /** Loads a language's texts the first time it is chosen. */
  load?: (lng: string) => Promise<Texts>;
}

const isTexts = (value: unknown): value is Texts => typeof value === 'object' && value !== null;

function merge(target: Texts, source: Texts, overwrite: boolean): Texts {
  for (const [key, value] of Object.entries(source)) {
    const current = target[key];
    if (isTexts(value) && isTexts(current)) merge(current, value, overwrite);
    else if (current === undefined || overwrite) target[key] = isTexts(value) ? merge({}, value, true) : value;
  }
  return target;
}

const PLACEHOLDER = /\{\{\s*([^}]+?)\s*\}\}/g;

export class Translator {
  /** The chosen language. */
  language: string;
  /** The language whose texts are shown: the chosen one once loaded, else the fallback. */
  resolvedLanguage: string;
  readonly store: Record<string, Texts> = {};
  private readonly options: TranslatorOptions;
  private readonly rules = new Map<string, Intl.PluralRules>();
  private readonly listeners = new Set<() => void>();
  private switching = 0;

  constructor(options: TranslatorOptions) {
    this.options = options;
    for (const [lng, texts] of Object.entries(options.resources ?? {})) this.store[lng] = merge({}, texts, true);
    this.language = options.lng;
    this.resolvedLanguage = this.store[options.lng] ? options.lng : options.fallbackLng;
  }

  /** Adds texts to a language (deep), keeping what is there unless `overwrite`. */
  addResourceBundle(lng: string, _namespace: string, texts: Texts, _deep = true, overwrite = false): void {
    this.store[lng] = merge(this.store[lng] ?? {}, texts, overwrite);
  }

  /** Chooses the language, loading its texts first (a failed load shows the fallback's). */
  async changeLanguage(lng: string): Promise<void> {
    const turn = ++this.switching;
    if (!this.store[lng] && this.options.load && lng !== this.options.fallbackLng) {
      try {
        this.addResourceBundle(lng, 'translation', await this.options.load(lng), true, true);
      } catch {
        // Offline or missing: the fallback language's texts are shown.
      }
    }
    if (turn !== this.switching) return;
    this.language = lng;
    this.resolvedLanguage = this.store[lng] ? lng : this.options.fallbackLng;
    this.listeners.forEach((listener) => listener());
  }

  /** Calls `listener` after every change of language; returns the unsubscribe. */
  onLanguageChanged(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private lookup(lng: string, key: string): string | undefined {
    let node: string | Texts | undefined = this.store[lng];
    for (const part of key.split('.')) {
      if (!isTexts(node)) return undefined;
      node = node[part];
    }
    return typeof node === 'string' ? node : undefined;
  }

  private plural(lng: string, count: number): string {
    let rule = this.rules.get(lng);
    if (!rule) {
      try {
        rule = new Intl.PluralRules(this.options.tag?.(lng) ?? lng);
      } catch {
        rule = new Intl.PluralRules('en');
      }
      this.rules.set(lng, rule);
    }
    return rule.select(count);
  }

  private languages(lng?: string): string[] {
    const first = lng ?? this.language;
    return first === this.options.fallbackLng ? [first] : [first, this.options.fallbackLng];
  }

  private find(key: string, options: TOptions): { text: string; lng: string } | undefined {
    for (const lng of this.languages(options.lng)) {
      if (typeof options.count === 'number') {
        const text = this.lookup(lng, `${key}_${this.plural(lng, options.count)}`);
        if (text !== undefined) return { text, lng };
      }
      const text = this.lookup(lng, key);
      if (text !== undefined) return { text, lng };
    }
    return undefined;
  }

  exists(key: string, options: TOptions = {}): boolean {
    return this.find(key, options) !== undefined;
  }

  /** The text of `key` with its placeholders filled; the key itself when no language has it. */
  t: TFunction = (key, given = {}) => {
    const options: TOptions = typeof given === 'string' ? { defaultValue: given } : given;
    const found = this.find(key, options);
    const lng = found?.lng ?? options.lng ?? this.language;
    const text = found?.text ?? options.defaultValue ?? key;
    return text.replace(PLACEHOLDER, (match, inner: string) => {
      const [name = '', format] = inner.split(',').map((part) => part.trim());
      const value = options[name];
      if (value === undefined || value === null) return match;
      if (format === 'number' && this.options.formatNumber) return this.options.formatNumber(Number(value), lng);
      return String(value);
    });
  };
}
