import type { AdminBlogPost } from '@reverie/shared';
import type { MediaUrls } from '../../lib/media-urls.js';
import type { BlogPostRow } from '../blog/index.js';

/**
 * A post never published keeps `published_at` equal to `created_at` (the column is required);
 * the console shows it as null, and the first publish sets it.
 */
export const neverPublished = (row: BlogPostRow) =>
  !row.isPublished && row.publishedAt.getTime() === row.createdAt.getTime();

export function presentAdminBlogPost(row: BlogPostRow, urls: MediaUrls): AdminBlogPost {
  return {
    id: row.id,
    title: row.title,
    summary: row.summary,
    body: row.body,
    // A draft's uploaded cover is not public yet: a signed URL lets the console's <img> load it.
    cover_url: row.coverKey ? urls.url(row.coverKey, { signed: !row.isPublished }) : row.coverUrl,
    is_published: row.isPublished,
    published_at: neverPublished(row) ? null : row.publishedAt.toISOString(),
    seo_title: row.seoTitle,
    seo_description: row.seoDescription,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** What the audit log keeps of a post before and after a write (the body as its length). */
export function blogSnapshot(row: BlogPostRow): Record<string, unknown> {
  return {
    title: row.title,
    summary: row.summary,
    body_length: row.body.length,
    cover_key: row.coverKey,
    cover_url: row.coverUrl,
    is_published: row.isPublished,
    published_at: neverPublished(row) ? null : row.publishedAt.toISOString(),
    seo_title: row.seoTitle,
    seo_description: row.seoDescription,
  };
}
