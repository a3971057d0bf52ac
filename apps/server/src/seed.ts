import type { Edition } from '@reverie/shared';
import type { Database } from './db/client.js';
import type { MediaStorage } from './providers/storage/index.js';
import { seedBlogPosts } from './modules/blog/index.js';
import { seedOfficialCharacters } from './modules/bots/index.js';

export interface SeedReport {
  blogPosts: number;
  characters: number;
  /**
   * Draws the official characters' private pictures that are missing from storage (a cache, like
   * every seeded picture): the server runs it once it listens, `npm run db:seed` waits for it.
   */
  drawPictures: () => Promise<number>;
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
  const blogPosts = await seedBlogPosts(db, edition);
  if (blogPosts) log(`seeded ${blogPosts} blog post(s)`);
  // Characters need media storage for their pictures; callers without one skip them.
  const seeded = options.storage ? await seedOfficialCharacters(db, options.storage, log) : null;
  return {
    blogPosts,
    characters: seeded?.inserted ?? 0,
    drawPictures: seeded ? seeded.drawPrivatePictures : async () => 0,
  };
}
