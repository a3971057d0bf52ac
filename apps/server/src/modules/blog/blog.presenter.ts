import type { BlogPost, BlogPostSummary } from '@reverie/shared';
import { publicMediaUrl } from '../../lib/media-urls.js';
import type { BlogPostRow } from './blog.repository.js';

/**
 * A post's cover: one uploaded in the admin console (media storage, `blog/<id>/…`, public once
 * the post is published) or a shipped post's URL.
 */
export function coverUrlOf(row: Pick<BlogPostRow, 'coverKey' | 'coverUrl'>): string | null {
  return row.coverKey ? publicMediaUrl(row.coverKey) : row.coverUrl;
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
