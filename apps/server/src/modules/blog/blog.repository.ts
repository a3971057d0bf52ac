import { and, desc, eq, lt, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { updateRow } from '../../db/rows.js';
import { blogPosts, type BlogTranslations } from '../../db/schema.js';

export type BlogPostRow = typeof blogPosts.$inferSelect;
export type { BlogTranslations };
export type NewBlogPost = typeof blogPosts.$inferInsert;

/** Published posts, newest first, after the given (published_at, id) key. */
export async function listPublishedPosts(
  db: Database,
  options: { limit: number; after?: { publishedAt: Date; id: string } | null },
): Promise<BlogPostRow[]> {
  const { after } = options;
  return db
    .select()
    .from(blogPosts)
    .where(
      and(
        eq(blogPosts.isPublished, true),
        after
          ? or(
              lt(blogPosts.publishedAt, after.publishedAt),
              and(eq(blogPosts.publishedAt, after.publishedAt), lt(blogPosts.id, after.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(blogPosts.publishedAt), desc(blogPosts.id))
    .limit(options.limit);
}

export async function findPublishedPost(db: Database, id: string): Promise<BlogPostRow | null> {
  const [row] = await db
    .select()
    .from(blogPosts)
    .where(and(eq(blogPosts.id, id), eq(blogPosts.isPublished, true)))
    .limit(1);
  return row ?? null;
}

/** Inserts posts that do not exist yet (by id); existing posts are left as edited. */
export async function insertMissingPosts(db: Database, posts: NewBlogPost[]): Promise<number> {
  if (posts.length === 0) return 0;
  const inserted = await db
    .insert(blogPosts)
    .values(posts)
    .onConflictDoNothing({ target: blogPosts.id })
    .returning({ id: blogPosts.id });
  return inserted.length;
}

/** Writes a shipped post's translations when they differ (the seed; the English text is left as edited). */
export async function updatePostTranslations(db: Database, id: string, translations: BlogTranslations): Promise<void> {
  await db
    .update(blogPosts)
    .set({ translations })
    .where(
      and(eq(blogPosts.id, id), sql`${blogPosts.translations} is distinct from ${JSON.stringify(translations)}::jsonb`),
    );
}

// The admin console's reads and writes (modules/admin/blog.*); `db` may be a transaction.

/** Every post, drafts included, most recently changed first. */
export async function listAllPosts(db: Database, limit = 500): Promise<BlogPostRow[]> {
  return db.select().from(blogPosts).orderBy(desc(blogPosts.updatedAt), desc(blogPosts.id)).limit(limit);
}

export async function findPostForUpdate(db: Database, id: string): Promise<BlogPostRow | null> {
  const [row] = await db.select().from(blogPosts).where(eq(blogPosts.id, id)).limit(1).for('update');
  return row ?? null;
}

/** Inserts a new post; null when the id is taken. */
export async function insertPost(db: Database, values: NewBlogPost): Promise<BlogPostRow | null> {
  const [row] = await db.insert(blogPosts).values(values).onConflictDoNothing({ target: blogPosts.id }).returning();
  return row ?? null;
}

export async function updatePost(db: Database, id: string, values: Partial<NewBlogPost>): Promise<BlogPostRow> {
  return (await updateRow(db, blogPosts, eq(blogPosts.id, id), { ...values, updatedAt: new Date() }))!;
}

export async function deletePost(db: Database, id: string): Promise<void> {
  await db.delete(blogPosts).where(eq(blogPosts.id, id));
}
