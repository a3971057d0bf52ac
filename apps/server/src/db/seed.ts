import fs from 'node:fs/promises';
import path from 'node:path';
import type { Edition } from '@reverie/shared';
import type { Database } from './client.js';
import { serverRoot } from '../lib/paths.js';
import { fillTemplate, parseFrontMatter } from '../lib/templates.js';
import { insertMissingPosts, type NewBlogPost } from '../modules/blog/blog.repository.js';
import type { MediaStorage } from '../providers/storage/index.js';
import { seedOfficialCharacters } from './seed-bots.js';

export interface SeedReport {
  blogPosts: number;
  characters: number;
}

/** Reads the shipped blog posts (content/blog/*.md with front matter). */
export async function readShippedBlogPosts(edition: Edition): Promise<NewBlogPost[]> {
  const dir = path.join(serverRoot(), 'content', 'blog');
  const files = (await fs.readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.md')).sort();
  const posts = await Promise.all(
    files.map(async (file): Promise<NewBlogPost> => {
      const { data, body } = parseFrontMatter(await fs.readFile(path.join(dir, file), 'utf8'));
      const vars = { name: edition.name };
      return {
        id: path.basename(file, '.md'),
        title: fillTemplate(data.title ?? path.basename(file, '.md'), vars),
        summary: fillTemplate(data.summary ?? '', vars),
        body: fillTemplate(body.trim(), vars),
        publishedAt: data.published_at ? new Date(data.published_at) : new Date(),
      };
    }),
  );
  return posts.filter((post) => !Number.isNaN(post.publishedAt?.getTime()));
}

/**
 * Seeds the official content. Idempotent: rows that exist are left alone, so an operator's
 * edits survive restarts.
 */
export async function seedDatabase(
  db: Database,
  edition: Edition,
  log: (message: string) => void = () => {},
  options: { storage?: MediaStorage } = {},
): Promise<SeedReport> {
  const blogPosts = await insertMissingPosts(db, await readShippedBlogPosts(edition));
  if (blogPosts) log(`seeded ${blogPosts} blog post(s)`);
  // Characters need media storage for their pictures; callers without one skip them.
  const characters = options.storage ? (await seedOfficialCharacters(db, options.storage, log)).inserted : 0;
  return { blogPosts, characters };
}
