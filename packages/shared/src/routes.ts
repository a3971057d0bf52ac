/**
 * The web app's routes (spec §2), shared so that the server answers 404 for paths the app
 * does not know and writes page metadata for the ones it does.
 */
export const WEB_ROUTE_PATTERNS = [
  '/',
  '/password',
  '/verify',
  '/chat',
  '/audio',
  '/settings',
  '/settings/characters',
  '/u/:id',
  '/transform',
  '/undress',
  '/welcome',
  '/blog',
  '/blog/:id',
  '/email/unsubscribe',
  '/takedown',
  '/admin',
  '/admin/:section',
  '/admin/:section/:id',
  '/checkout/sandbox/:id',
  '/memories/:slug',
  '/lorebooks',
  '/lorebooks/:id',
  '/lorebooks/character/:slug',
  '/scene/join/:code',
  '/:slug',
] as const;

/** Blog posts are addressed by a readable slug, e.g. `/blog/how-memory-works`. */
export const BLOG_ID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A character's slug: lower-case letters, digits and single hyphens or underscores. */
export const BOT_SLUG_PATTERN = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;
export const BOT_SLUG_MAX = 80;

export const isValidBotSlug = (slug: string) => slug.length <= BOT_SLUG_MAX && BOT_SLUG_PATTERN.test(slug);

/** Matches a path against the web routes; answers the pattern and its params, or null. */
export function matchWebRoute(
  pathname: string,
): { pattern: (typeof WEB_ROUTE_PATTERNS)[number]; params: Record<string, string> } | null {
  const clean = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const parts = clean.split('/').slice(1);
  for (const pattern of WEB_ROUTE_PATTERNS) {
    const expected = pattern.split('/').slice(1);
    if (pattern === '/' ? clean !== '/' : expected.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    expected.forEach((segment, i) => {
      const actual = parts[i] ?? '';
      if (segment.startsWith(':')) {
        try {
          params[segment.slice(1)] = decodeURIComponent(actual);
        } catch {
          ok = false;
        }
      } else if (segment !== actual) ok = false;
    });
    if (ok) return { pattern, params };
  }
  return null;
}

/**
 * The locale key of each page's title (the browser tab's `<title>`, written by the server
 * into index.html and kept by the web app as the user moves and switches language). A
 * character's page and a blog post are named after the character or the post instead.
 */
export const PAGE_TITLE_KEYS: Readonly<Record<string, string>> = {
  '/password': 'pages.password_title',
  '/verify': 'pages.verify_title',
  '/chat': 'pages.chats_title',
  '/audio': 'pages.audio_title',
  '/settings': 'pages.settings_title',
  '/settings/characters': 'pages.my_characters_title',
  '/u/:id': 'pages.creator_title',
  '/transform': 'pages.transform_title',
  '/undress': 'pages.transform_title',
  '/welcome': 'pages.welcome_title',
  '/blog': 'nav.blog',
  '/email/unsubscribe': 'pages.unsubscribe_title',
  '/takedown': 'pages.takedown_title',
  '/admin': 'pages.admin_title',
  '/admin/:section': 'pages.admin_title',
  '/admin/:section/:id': 'pages.admin_title',
  '/checkout/sandbox/:id': 'pages.checkout_title',
  '/memories/:slug': 'pages.memories_title',
  '/lorebooks': 'pages.lorebooks_title',
  '/lorebooks/:id': 'pages.lorebooks_title',
  '/lorebooks/character/:slug': 'pages.lorebooks_title',
  '/scene/join/:code': 'pages.scene_join_title',
};

/**
 * A page's title in the reader's language: "Chats — Reverie", the home page
 * "Reverie — <tagline>", an unknown path "Page not found — Reverie".
 * `pattern` is `matchWebRoute(...)?.pattern` (null for a path no route matches).
 */
export function pageTitle(
  pattern: string | null,
  t: (key: string, vars?: Record<string, string>) => string,
  edition: { id: string; name: string },
): string {
  if (pattern === null) return `${t('errors.page_not_found_title')} — ${edition.name}`;
  const key = PAGE_TITLE_KEYS[pattern];
  if (key) return `${t(key)} — ${edition.name}`;
  return `${edition.name} — ${t(`pages.tagline_${edition.id}`)}`;
}
