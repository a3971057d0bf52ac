import fs from 'node:fs/promises';
import path from 'node:path';
import type { Edition } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { serverRoot } from '../../lib/paths.js';
import { fillTemplate, parseFrontMatter } from '../../lib/templates.js';
import {
  insertMissingPosts,
  updatePostTranslations,
  type BlogTranslations,
  type NewBlogPost,
} from './blog.repository.js';

/** Longest blog post id (the blog cursor's and the post route's `slug` kind allow 120). */
const BLOG_ID_MAX = 120;

/**
 * The post id of a blog file: its name as a slug — lower-case letters, digits and single
 * dashes (`Launch_2025.md` → `launch-2025`, accents dropped), which is exactly what the post
 * route and the blog cursor accept. Null when nothing of the name is left.
 */
export function blogIdOf(file: string): string | null {
  const id = path
    .basename(file, '.md')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, BLOG_ID_MAX)
    .replace(/^-+|-+$/g, '');
  return id || null;
}

/** The languages a post is translated into, each in its folder (content/blog/<locale>/<same file name>). */
const TRANSLATED_LOCALES = ['ch', 'es', 'de', 'ru'] as const;

/**
 * A post's translations: the files of the same name in `dir/<locale>/` (title, summary and
 * body; a missing file or field falls back to English when shown).
 */
async function readTranslations(dir: string, file: string, vars: Record<string, string>): Promise<BlogTranslations> {
  const translations: BlogTranslations = {};
  for (const locale of TRANSLATED_LOCALES) {
    const text = await fs.readFile(path.join(dir, locale, file), 'utf8').catch(() => null);
    if (text === null) continue;
    const { data, body } = parseFrontMatter(text);
    translations[locale] = {
      ...(data.title ? { title: fillTemplate(data.title, vars) } : {}),
      ...(data.summary ? { summary: fillTemplate(data.summary, vars) } : {}),
      ...(body.trim() ? { body: fillTemplate(body.trim(), vars) } : {}),
    };
  }
  return translations;
}

/** Reads the shipped blog posts (content/blog/*.md with front matter, translations in content/blog/<locale>/). */
export async function readShippedBlogPosts(edition: Edition): Promise<NewBlogPost[]> {
  return readBlogPosts(path.join(serverRoot(), 'content', 'blog'), edition);
}

/**
 * Reads the blog posts of a directory (*.md with front matter). Ids come from the file names
 * (`blogIdOf`); a name that gives no id, or two names that give the same one, stop the seed
 * with a message naming the files.
 */
export async function readBlogPosts(dir: string, edition: Edition): Promise<NewBlogPost[]> {
  const files = (await fs.readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.md')).sort();
  const owners = new Map<string, string>();
  for (const file of files) {
    const id = blogIdOf(file);
    if (!id) throw new Error(`Blog post "${file}": the file name gives no id; use letters or digits`);
    const other = owners.get(id);
    if (other) throw new Error(`Blog posts "${other}" and "${file}" both give the id "${id}"; rename one`);
    owners.set(id, file);
  }
  const posts = await Promise.all(
    files.map(async (file): Promise<NewBlogPost> => {
      const { data, body } = parseFrontMatter(await fs.readFile(path.join(dir, file), 'utf8'));
      const vars = { name: edition.name };
      return {
        id: blogIdOf(file)!,
        title: fillTemplate(data.title ?? path.basename(file, '.md'), vars),
        summary: fillTemplate(data.summary ?? '', vars),
        body: fillTemplate(body.trim(), vars),
        publishedAt: data.published_at ? new Date(data.published_at) : new Date(),
        translations: await readTranslations(dir, file, vars),
      };
    }),
  );
  return posts.filter((post) => !Number.isNaN(post.publishedAt?.getTime()));
}

/**
 * Inserts the shipped posts that are missing (an operator's edits survive restarts) and writes
 * every shipped post's translations again when they changed; how many posts were inserted.
 */
export async function seedBlogPosts(db: Database, edition: Edition): Promise<number> {
  const posts = await readShippedBlogPosts(edition);
  const inserted = await insertMissingPosts(db, posts);
  for (const post of posts) await updatePostTranslations(db, post.id, post.translations ?? {});
  return inserted;
}
