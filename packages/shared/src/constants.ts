/**
 * Business constants and limits from the specification (§9) and PRODUCT.md.
 * Client and server both read them from here so they cannot drift.
 */

export const LOCALES = ['en', 'ch', 'es', 'de', 'ru'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** The value of `<html lang>` and of BCP 47 tags for each interface language. */
export const LOCALE_HTML_LANG: Record<Locale, string> = {
  en: 'en',
  ch: 'zh-CN',
  es: 'es',
  de: 'de',
  ru: 'ru',
};

/** Names shown in the language picker, each in its own language (spec §2 order). */
export const LOCALE_NATIVE_NAMES: Record<Locale, string> = {
  en: 'English',
  de: 'Deutsch',
  es: 'Español',
  ch: '中文',
  ru: 'Русский',
};
export const LANGUAGE_PICKER_ORDER: readonly Locale[] = ['en', 'de', 'es', 'ch', 'ru'];

export const BOTS_FIRST_PAGE_SIZE = 30;
/** The widths (px) `GET /api/media/{picture}?w=` resizes a character's picture to, as WebP. */
export const PICTURE_WIDTHS = [256, 512] as const;
export type PictureWidth = (typeof PICTURE_WIDTHS)[number];
/** The width a catalogue card takes (grid of 2 → 6 columns): for `sizes`. */
export const CARD_PICTURE_SIZES =
  '(min-width: 1280px) 17vw, (min-width: 1024px) 20vw, (min-width: 768px) 25vw, (min-width: 640px) 33vw, 50vw';

/** A picture of our media route at `width` (a WebP at card size); other addresses unchanged. */
export function pictureAtWidth(url: string, width: PictureWidth): string {
  if (!url.startsWith('/api/media/')) return url;
  return `${url}${url.includes('?') ? '&' : '?'}w=${width}`;
}

/** A card picture's `srcset` (the resized WebP copies), or undefined for an address not of our media. */
export function cardPictureSrcSet(url: string | null | undefined): string | undefined {
  if (!url || !url.startsWith('/api/media/')) return undefined;
  return PICTURE_WIDTHS.map((width) => `${pictureAtWidth(url, width)} ${width}w`).join(', ');
}

/** The id of the `<script type="application/json">` holding a guest's first catalogue page in the page of `/`. */
export const INLINE_CATALOGUE_ID = 'reverie-catalogue';
export const BOTS_NEXT_PAGE_SIZE = 15;
/** The longest catalogue search (`q` of `GET /api/bots/available`), in characters. */
export const BOT_SEARCH_MAX = 80;

export const UNBLUR_COST = 3;
export const DAILY_CLAIM_AMOUNT = 100;
export const PREMIUM_GRANT_AMOUNT = 100;
export const FREE_TRIAL_DAYS = 3;
export const TRANSFORM_COST = 5;
/** The style transform's styles (issue 16, docs/transform.md), in the order the page shows them. */
export const TRANSFORM_STYLES = [
  'anime',
  'comic',
  'watercolour',
  'pencil',
  'oil',
  'pop_art',
  'cyberpunk',
  'vintage',
] as const;
export type TransformStyle = (typeof TRANSFORM_STYLES)[number];
/** The longest side of a transform's result, in pixels (smaller photos keep their size). */
export const TRANSFORM_MAX_SIDE = 1024;

export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** A character card file (PNG or JSON) may carry a large picture; it is still bounded. */
export const CARD_MAX_BYTES = 2 * IMAGE_MAX_BYTES;
export const USERNAME_MAX = 100;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 255;
export const ISSUE_TEXT_MAX = 1000;
export const PERSONA_CHOICES_MAX = 3;
export const MIN_CHARACTER_AGE = 18;

export const PROFILE_REFRESH_MS = 10 * 60 * 1000;
export const AUDIO_POLL_MS = 1000;
export const UNAUTHORIZED_RETRY_DELAY_MS = 1000;
export const CHUNK_RELOAD_BLOCK_MS = 10_000;

export const BREAKPOINT_MOBILE_PX = 768;
export const BREAKPOINT_LANDSCAPE_PX = 1024;

export const ICON_SIZES = { sm: 16, md: 20, lg: 24, xl: 32, xxl: 52 } as const;
export type IconSize = keyof typeof ICON_SIZES;

export const ALERT_DEFAULTS = { type: 'success', autoCloseMs: 5000, closable: true } as const;

export const ANALYTICS = {
  batchSize: 50,
  flushIntervalMs: 5000,
  requestTimeoutMs: 90_000,
  maxRetryDelayMs: 10 * 60 * 1000,
  cookieExpiryDays: 365,
  maxPropertyLength: 255,
  deviceCookieName: 'rv_device_id',
} as const;

export const ROUTE_PRELOAD_CONCURRENCY = 4;

export const ACCESS_TOKEN_TTL_S = 15 * 60;
export const REFRESH_TOKEN_TTL_S = 30 * 24 * 60 * 60;
/**
 * How long a just-rotated refresh token is still accepted: presented again within this
 * window it answers the same new pair (several tabs refreshing at once), after it the reuse
 * revokes the whole family.
 */
export const REFRESH_GRACE_S = 10;

/** Message kinds (spec §3). */
export const MessageKind = { Text: 1, Image: 2, BlurImage: 3, Processed: 9999 } as const;
export type MessageKind = (typeof MessageKind)[keyof typeof MessageKind];

/** Local-storage keys used by the web client (spec §3). */
export const STORAGE_KEYS = {
  language: 'lang',
  accessToken: 'access_token',
  refreshToken: 'refresh_token',
  authorizedOnce: 'authorized_once',
  ageConfirmed: 'age_confirmed',
  newsDismissed: 'news_dismissed',
} as const;

/**
 * Formats a desires balance, whole and never negative, with the thousands grouping of the
 * interface language (issue 13: "1,000" in English, "1 000" in Russian, "1.000" in German;
 * spec §9's space stays where the language writes one).
 */
export function formatBalance(value: number, locale: Locale = DEFAULT_LOCALE): string {
  const n = Math.max(0, Math.trunc(Number.isFinite(value) ? value : 0));
  let format = balanceFormats.get(locale);
  if (!format) {
    // Made once per language: making one costs far more than using it (the header shows it on every render).
    format = new Intl.NumberFormat(LOCALE_HTML_LANG[locale], { maximumFractionDigits: 0 });
    balanceFormats.set(locale, format);
  }
  return format.format(n);
}

const balanceFormats = new Map<Locale, Intl.NumberFormat>();

/** Maps any language tag (`zh-CN`, `de-AT`, `ch`) to an interface locale, or null. */
export function toLocale(tag: string | null | undefined): Locale | null {
  if (!tag) return null;
  const base = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  if (base === 'zh' || base === 'ch') return 'ch';
  return (LOCALES as readonly string[]).includes(base) ? (base as Locale) : null;
}

/**
 * Picks the best interface locale from an `Accept-Language` header, honouring q-values.
 * Falls back to English.
 */
export function negotiateLocale(header: string | null | undefined): Locale {
  if (!header) return DEFAULT_LOCALE;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag, weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const entry of ranked) {
    const locale = toLocale(entry.tag);
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}

/** Where the Rewardful affiliate script comes from when an operator sets its key. */
export const REWARDFUL_ORIGIN = 'https://r.wdfl.co';

/**
 * Unread counts stop here (a chat's on the chats list, the user's total): the badge shows
 * "99+" beyond 99, so counting a never-read chat of 100 000 messages to the end buys nothing
 * and cost 455 ms a list (docs/companion.md "Unread").
 */
export const UNREAD_COUNT_CAP = 100;
