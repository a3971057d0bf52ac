import { loadConfig } from '../config.js';
import { runMigrations } from '../db/migrate.js';
import { fitCharacterVoices } from '../modules/bots/index.js';
import { openDatabaseForCommand } from './open-database.js';

/**
 * `npm run voices:fit` (`node apps/server/dist/cli/fit-voices.js` in a build): once after
 * upgrading from a version that gave every user-made character a woman's voice, gives the
 * men a man's voice (docs/voice.md "Which voice a character gets"). Safe to run again; it
 * changes only characters whose texts speak of a man. On PostgreSQL the server may keep
 * running; on PGlite stop it first (two processes must not open one data directory).
 */
const config = loadConfig();
const database = await openDatabaseForCommand(config, 'voices:fit');
try {
  await runMigrations(database);
  const { checked, changed } = await fitCharacterVoices(database.db);
  console.log(`checked ${checked} user-made character(s) with a woman's voice; ${changed} now speak with a man's`);
} finally {
  await database.close();
}
