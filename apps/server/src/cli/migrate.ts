import { loadConfig } from '../config.js';
import { runMigrations } from '../db/migrate.js';
import { openDatabaseForCommand } from './open-database.js';

/** `npm run db:migrate`: applies pending migrations to the configured database. */
const config = loadConfig();
const database = await openDatabaseForCommand(config, 'db:migrate');
try {
  await runMigrations(database);
  console.log(`migrations applied (${database.driver})`);
} finally {
  await database.close();
}
