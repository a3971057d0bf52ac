import { randomBytes } from 'node:crypto';
import type { AdminBlogList, AdminBlogPost, AdminBlogPostInput, AdminBlogPostPatch } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { AppError, notFound } from '../../lib/errors.js';
import { sanitizeImage } from '../../lib/images.js';
import { sentColumns } from '../../lib/patch.js';
import type { BlogPostRow, NewBlogPost } from '../blog/index.js';
import type { AdminDeps } from './admin-deps.js';
import { recordAudit } from './audit.repository.js';
import { blogSnapshot, neverPublished, presentAdminBlogPost } from './blog.presenter.js';

/**
 * The console's Blog section: posts in Markdown, drafts, publishing, a cover in media storage
 * (`blog/<id>/cover-….webp`, public once the post is), SEO fields for the page's meta. Every
 * write runs in one transaction with its audit record.
 */
export class AdminBlogService {
  constructor(private readonly deps: AdminDeps) {}

  private present = (row: BlogPostRow) => presentAdminBlogPost(row, this.deps.urls);

  async list(): Promise<AdminBlogList> {
    return { results: (await this.deps.blog.listAllPosts(this.deps.db)).map(this.present) };
  }

  async one(id: string): Promise<AdminBlogPost> {
    const row = await this.deps.db.transaction((tx) => this.deps.blog.findPostForUpdate(tx as unknown as Database, id));
    if (!row) throw notFound();
    return this.present(row);
  }

  private async write(
    actorId: string,
    action: string,
    id: string,
    work: (db: Database, current: BlogPostRow | null) => Promise<BlogPostRow | null>,
  ): Promise<{ before: BlogPostRow | null; after: BlogPostRow | null }> {
    return this.deps.db.transaction(async (tx) => {
      const db = tx as unknown as Database;
      const before = await this.deps.blog.findPostForUpdate(db, id);
      const after = await work(db, before);
      await recordAudit(db, actorId, {
        action,
        targetType: 'blog_post',
        targetId: id,
        before: before ? blogSnapshot(before) : null,
        after: after ? blogSnapshot(after) : null,
      });
      return { before, after };
    });
  }

  /** A new draft; 409 `blog_id_taken` when a post has that id. */
  async create(actorId: string, input: AdminBlogPostInput): Promise<AdminBlogPost> {
    const { after } = await this.write(actorId, 'blog_post.create', input.id, async (db, current) => {
      if (current) throw new AppError('blog_id_taken', { status: 409 });
      const now = new Date();
      const values: NewBlogPost = {
        id: input.id,
        title: input.title,
        summary: input.summary,
        body: input.body,
        seoTitle: input.seo_title ?? null,
        seoDescription: input.seo_description ?? null,
        isPublished: false,
        // Equal to created_at until the first publish (see neverPublished).
        publishedAt: now,
        createdAt: now,
        updatedAt: now,
      };
      const row = await this.deps.blog.insertPost(db, values);
      if (!row) throw new AppError('blog_id_taken', { status: 409 });
      return row;
    });
    return this.present(after!);
  }

  async update(actorId: string, id: string, patch: AdminBlogPostPatch): Promise<AdminBlogPost> {
    let oldCover: string | null = null;
    const { after } = await this.write(actorId, 'blog_post.update', id, async (db, current) => {
      if (!current) throw notFound();
      const values = sentColumns<AdminBlogPostPatch, NewBlogPost>(patch, {
        title: 'title',
        summary: 'summary',
        body: 'body',
        seo_title: 'seoTitle',
        seo_description: 'seoDescription',
      });
      if (patch.remove_cover) {
        oldCover = current.coverKey;
        values.coverKey = null;
        values.coverUrl = null;
      }
      return this.deps.blog.updatePost(db, id, values);
    });
    if (oldCover) await this.deps.storage.delete(oldCover).catch(() => {});
    return this.present(after!);
  }

  /** Publishes (the first time sets `published_at`) or takes back to a draft. */
  async publish(actorId: string, id: string, published: boolean): Promise<AdminBlogPost> {
    const { after } = await this.write(
      actorId,
      published ? 'blog_post.publish' : 'blog_post.unpublish',
      id,
      async (db, current) => {
        if (!current) throw notFound();
        return this.deps.blog.updatePost(db, id, {
          isPublished: published,
          ...(published && neverPublished(current) ? { publishedAt: new Date() } : {}),
        });
      },
    );
    return this.present(after!);
  }

  /** A cover picture: sanitised (re-encoded, metadata dropped) and stored; the old one deleted. */
  async setCover(actorId: string, id: string, file: Buffer): Promise<AdminBlogPost> {
    const image = await sanitizeImage(file);
    const key = `blog/${id}/cover-${randomBytes(4).toString('hex')}.webp`;
    let oldCover: string | null = null;
    await this.deps.storage.put(key, image.data, image.contentType);
    try {
      const { after } = await this.write(actorId, 'blog_post.cover', id, async (db, current) => {
        if (!current) throw notFound();
        oldCover = current.coverKey;
        return this.deps.blog.updatePost(db, id, { coverKey: key });
      });
      if (oldCover) await this.deps.storage.delete(oldCover).catch(() => {});
      return this.present(after!);
    } catch (error) {
      await this.deps.storage.delete(key).catch(() => {});
      throw error;
    }
  }

  async remove(actorId: string, id: string): Promise<void> {
    let cover: string | null = null;
    await this.write(actorId, 'blog_post.delete', id, async (db, current) => {
      if (!current) throw notFound();
      cover = current.coverKey;
      await this.deps.blog.deletePost(db, id);
      return null;
    });
    if (cover) await this.deps.storage.delete(cover).catch(() => {});
  }
}
