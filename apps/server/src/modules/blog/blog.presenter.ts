import type { BlogPost, BlogPostSummary } from '@reverie/shared';
import type { BlogPostRow } from './blog.repository.js';

export function presentBlogPostSummary(row: BlogPostRow): BlogPostSummary {
  return {
    id: row.id,
    title: row.title,
    summary: row.summary,
    cover_url: row.coverUrl,
    published_at: row.publishedAt.toISOString(),
  };
}

export function presentBlogPost(row: BlogPostRow): BlogPost {
  return { ...presentBlogPostSummary(row), body: row.body };
}
