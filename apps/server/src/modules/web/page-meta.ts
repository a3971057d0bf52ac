import { isValidBotSlug, matchWebRoute, pageTitle, BLOG_ID_PATTERN, type Edition, type Locale } from '@reverie/shared';
import { escapeHtml, insertLiteral } from '../../lib/html.js';
import { translate } from '../../lib/i18n.js';
import { coverUrlOf, type BlogPostRow } from '../blog/index.js';
import { blurredKeyOf, type BotRow } from '../bots/index.js';

export interface PageMeta {
  /** 404 for a path no web route matches, or `/{slug}` of no visible character. */
  status: 200 | 404;
  title: string;
  description: string;
  image: string | null;
  type: 'website' | 'article' | 'profile';
  url: string;
}

/** The reads a page's metadata needs: a published post, a character anyone may see. */
export interface PageReads {
  findPublishedPost(id: string): Promise<BlogPostRow | null>;
  findPublicBotBySlug(slug: string): Promise<BotRow | null>;
}

const MAX_DESCRIPTION = 200;

function clip(text: string, max = MAX_DESCRIPTION): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

function absolute(publicUrl: string, pathOrUrl: string | null): string | null {
  if (!pathOrUrl) return null;
  try {
    return new URL(pathOrUrl, publicUrl).toString();
  } catch {
    return null;
  }
}

/**
 * Status, title, description and Open Graph data for a page, in the reader's language: a
 * character's page and a blog post get their own; every other page its title from
 * `PAGE_TITLE_KEYS` (the same the web app sets) and the edition's description. 404 ("Page
 * not found") for a path no web route matches, `/{slug}` of no character visible to anyone
 * and `/blog/{id}` of no published post.
 */
export async function resolvePageMeta(
  reads: PageReads,
  options: { edition: Edition; publicUrl: string; pathname: string; locale: Locale },
): Promise<PageMeta> {
  const { edition, publicUrl, pathname, locale } = options;
  const t = (key: string, vars?: Record<string, string>) => translate(locale, key, vars);
  const url = absolute(publicUrl, pathname) ?? publicUrl;
  const match = matchWebRoute(pathname);
  const fallback: PageMeta = {
    status: 200,
    title: pageTitle(match?.pattern ?? null, t, edition),
    description: clip(t('pages.meta_description', { name: edition.name })),
    image: absolute(publicUrl, '/og-image.png'),
    type: 'website',
    url,
  };
  const notFound: PageMeta = { ...fallback, status: 404, title: pageTitle(null, t, edition) };
  if (!match) return notFound;

  if (match.pattern === '/blog/:id') {
    const post =
      match.params.id && BLOG_ID_PATTERN.test(match.params.id) ? await reads.findPublishedPost(match.params.id) : null;
    // The web app shows its "page not found" for a post that is not published either.
    if (!post) return notFound;
    return {
      status: 200,
      // The SEO fields of the admin console, when set, over the post's title and summary.
      title: post.seoTitle || `${post.title} — ${edition.name}`,
      description: clip(post.seoDescription || post.summary),
      image: absolute(publicUrl, coverUrlOf(post)) ?? fallback.image,
      type: 'article',
      url,
    };
  }
  if (match.pattern === '/:slug') {
    // A page request carries no credentials (tokens live in the browser's storage), so the
    // character must be visible to anyone: any other slug — unknown, or another user's
    // private character — is a 404, which also tells nothing of a private one's existence.
    // The web app still opens an author's own private character with its token.
    const bot =
      match.params.slug && isValidBotSlug(match.params.slug)
        ? await reads.findPublicBotBySlug(match.params.slug)
        : null;
    if (!bot) return notFound;
    return {
      status: 200,
      title: `${bot.name} — ${edition.name}`,
      description: clip(bot.description || bot.greeting || fallback.description),
      image: absolute(publicUrl, previewPicture(bot)) ?? fallback.image,
      type: 'profile',
      url,
    };
  }
  return fallback;
}

/**
 * The picture of a character's link preview: its current avatar — always one of its public
 * pictures, never a private one (docs/pictures.md) — as a guest sees it (an explicit avatar's
 * blurred copy); the stored `avatar_url` only for a character without an avatar file.
 */
function previewPicture(bot: BotRow): string | null {
  if (!bot.avatarKey) return bot.avatarUrl;
  return `/api/media/${bot.avatarExplicit ? blurredKeyOf(bot.avatarKey) : bot.avatarKey}`;
}

/** Writes the page's `<html>` attributes, title and meta tags into the built index.html. */
export function renderIndexHtml(
  template: string,
  meta: PageMeta,
  options: { editionId: string; lang: string; siteName: string },
): string {
  const tags = [
    `<meta name="description" content="${escapeHtml(meta.description)}" />`,
    `<link rel="canonical" href="${escapeHtml(meta.url)}" />`,
    `<meta property="og:site_name" content="${escapeHtml(options.siteName)}" />`,
    `<meta property="og:title" content="${escapeHtml(meta.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(meta.description)}" />`,
    `<meta property="og:type" content="${escapeHtml(meta.type)}" />`,
    `<meta property="og:url" content="${escapeHtml(meta.url)}" />`,
    meta.image ? `<meta property="og:image" content="${escapeHtml(meta.image)}" />` : '',
    `<meta name="twitter:card" content="${meta.image ? 'summary_large_image' : 'summary'}" />`,
    `<meta name="twitter:title" content="${escapeHtml(meta.title)}" />`,
    `<meta name="twitter:description" content="${escapeHtml(meta.description)}" />`,
  ]
    .filter(Boolean)
    .join('\n    ');
  // Values go in with a function (insertLiteral): a name or a path holding `$'` stays text.
  let html = insertLiteral(
    template,
    /<html[^>]*>/,
    `<html lang="${escapeHtml(options.lang)}" data-edition="${escapeHtml(options.editionId)}">`,
  );
  html = insertLiteral(html, /<title>[\s\S]*?<\/title>/, `<title>${escapeHtml(meta.title)}</title>`);
  html = html.replace(/<meta name="description"[^>]*>/, '');
  return insertLiteral(html, '<!--app-head-->', tags);
}
