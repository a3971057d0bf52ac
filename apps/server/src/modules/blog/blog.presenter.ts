import type { BlogPost, BlogPostSummary, Locale } from '@reverie/shared';
import { publicMediaUrl } from '../../lib/media-urls.js';
import type { BlogPostRow } from './blog.repository.js';

/**
 * A post's cover: one uploaded in the admin console (media storage, `blog/<id>/…`, public once
 * the post is published) or a shipped post's URL.
 */
export function coverUrlOf(row: Pick<BlogPostRow, 'coverKey' | 'coverUrl'>): string | null {
  return row.coverKey ? publicMediaUrl(row.coverKey) : row.coverUrl;
}

/**
 * A post in the reader's language: its translation's title, summary and body when the seed wrote
 * one (content/blog/<locale>/), else the post as written (English).
 */
export function localizePost(row: BlogPostRow, locale: Locale): BlogPostRow {
  const text = locale === 'en' ? undefined : row.translations?.[locale];
  if (!text) return row;
  return { ...row, title: text.title ?? row.title, summary: text.summary ?? row.summary, body: text.body ?? row.body };
}

export function presentBlogPostSummary(row: BlogPostRow): BlogPostSummary {
  return {
    id: row.id,
    title: row.title,
    summary: row.summary,
    cover_url: coverUrlOf(row),
    published_at: row.publishedAt.toISOString(),
  };
}

export function presentBlogPost(row: BlogPostRow): BlogPost {
  return { ...presentBlogPostSummary(row), body: row.body };
}
