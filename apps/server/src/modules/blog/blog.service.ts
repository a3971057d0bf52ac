import type { BlogList, BlogPost, Locale } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { decodeCursor, keysetPage } from '../../lib/cursor.js';
import { notFound } from '../../lib/errors.js';
import { localizePost, presentBlogPost, presentBlogPostSummary } from './blog.presenter.js';
import { findPublishedPost, listPublishedPosts } from './blog.repository.js';

export interface BlogServiceDeps {
  db: Database;
}

/** The public blog: published posts only. */
export class BlogService {
  constructor(private readonly deps: BlogServiceDeps) {}

  /** One page of posts, newest first, in the reader's language, with a keyset cursor to the next page. */
  async list(size: number, cursor?: string, locale: Locale = 'en'): Promise<BlogList> {
    const key = decodeCursor(cursor, ['iso', 'slug']);
    const after = key ? { publishedAt: new Date(key[0]), id: key[1] } : null;
    const rows = await listPublishedPosts(this.deps.db, { limit: size + 1, after });
    return keysetPage(
      rows,
      size,
      (row) => presentBlogPostSummary(localizePost(row, locale)),
      (last) => [last.publishedAt.toISOString(), last.id],
    );
  }

  /** A published post in the reader's language; 404 for a draft or an unknown id. */
  async get(id: string, locale: Locale = 'en'): Promise<BlogPost> {
    const row = await findPublishedPost(this.deps.db, id);
    if (!row) throw notFound();
    return presentBlogPost(localizePost(row, locale));
  }
}
