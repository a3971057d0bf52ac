import { getEdition } from '@reverie/shared';
import { loadConfig } from '../config.js';
import { applyMigrations, withStartupLock } from '../db/migrate.js';
import { seedDatabase } from '../seed.js';
import { openDatabaseForCommand } from './open-database.js';
import { createMediaStorage } from '../providers/storage/index.js';

/** `npm run db:seed`: migrates, then seeds the official content (idempotent). */
const config = loadConfig();
const database = await openDatabaseForCommand(config, 'db:seed');
try {
  // Under the startup lock, like a starting server (replicas may be starting now).
  const report = await withStartupLock(database, async (session) => {
    await applyMigrations(database, session);
    return seedDatabase(database.db, getEdition(config.APP_NAME), (line) => console.log(line), {
      storage: createMediaStorage(config),
    });
  });
  await report.drawPictures();
  console.log('seed complete', { blogPosts: report.blogPosts, characters: report.characters });
} finally {
  await database.close();
}
