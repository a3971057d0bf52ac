import type { BlogList, BlogPost } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { decodeCursor, keysetPage } from '../../lib/cursor.js';
import { notFound } from '../../lib/errors.js';
import { presentBlogPost, presentBlogPostSummary } from './blog.presenter.js';
import { findPublishedPost, listPublishedPosts } from './blog.repository.js';

/** One page of posts, newest first, with a keyset cursor to the next page. */
export async function listBlogPosts(db: Database, size: number, cursor?: string): Promise<BlogList> {
  const key = decodeCursor(cursor, ['iso', 'slug']);
  const after = key ? { publishedAt: new Date(key[0]), id: key[1] } : null;
  const rows = await listPublishedPosts(db, { limit: size + 1, after });
  return keysetPage(rows, size, presentBlogPostSummary, (last) => [last.publishedAt.toISOString(), last.id]);
}

export async function getBlogPost(db: Database, id: string): Promise<BlogPost> {
  const row = await findPublishedPost(db, id);
  if (!row) throw notFound();
  return presentBlogPost(row);
}
