import fs from 'node:fs';
import path from 'node:path';
import { getEdition } from '@reverie/shared';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { openDatabase, type DatabaseHandle } from './db/client.js';
import { applyMigrations, withStartupLock } from './db/migrate.js';
import { seedDatabase } from './seed.js';
import { loggerOptions } from './lib/logger.js';
import { repoRoot } from './lib/paths.js';
import { createMediaStorage } from './providers/storage/index.js';

/** The database the settings select: PostgreSQL when DATABASE_URL is set, else PGlite. */
export async function openConfiguredDatabase(config: Config, role = 'server'): Promise<DatabaseHandle> {
  if (!config.DATABASE_URL) fs.mkdirSync(config.dataDir, { recursive: true });
  return openDatabase({
    url: config.DATABASE_URL,
    pgliteDir: configuredPgliteDir(config),
    poolSize: config.DATABASE_POOL_SIZE,
    role,
  });
}

/** Where the embedded database lives (`DATA_DIR/pglite`; its lock is `DATA_DIR/pglite.lock`). */
export const configuredPgliteDir = (config: Config) => path.join(config.dataDir, 'pglite');

export function defaultWebDistDir(config: Config): string | null {
  if (config.WEB_DIST_DIR !== undefined) return config.WEB_DIST_DIR || null;
  return path.join(repoRoot(), 'apps', 'web', 'dist');
}

/**
 * Opens the database, migrates, seeds and builds the app: everything `server.ts` does
 * before it listens (benchmarks and end-to-end tests start the server the same way). On
 * PostgreSQL the migrations and the seed run under an advisory lock (`withStartupLock`), so
 * any number of replicas may start at once.
 */
export async function prepareServer(config: Config): Promise<{ app: FastifyInstance; database: DatabaseHandle }> {
  const mark = (() => {
    let last = performance.now();
    return () => {
      const now = performance.now();
      const ms = Math.round(now - last);
      last = now;
      return ms;
    };
  })();
  const database = await openConfiguredDatabase(config);
  const phases: Record<string, number> = { open_database_ms: mark() };
  const after: { drawPictures: (() => Promise<number>) | null } = { drawPictures: null };
  try {
    // Migrations, building and the seed run under the startup lock: replicas started
    // together on a new database take turns, so none meets another's half-done seed.
    const app = await withStartupLock(database, async (session) => {
      phases.startup_lock_ms = mark();
      await applyMigrations(database, session);
      phases.migrate_ms = mark();
      const built = await buildApp({
        config,
        database,
        logger: loggerOptions(config),
        webDistDir: defaultWebDistDir(config),
      });
      phases.build_app_ms = mark();
      try {
        if (config.SEED_ON_START) {
          const report = await seedDatabase(
            database.db,
            getEdition(config.APP_NAME),
            (message) => built.log.info(message),
            { storage: createMediaStorage(config) },
          );
          // The private pictures are drawn in the background: the server does not wait for them.
          after.drawPictures = report.drawPictures;
        }
      } catch (error) {
        await built.close().catch(() => {});
        throw error;
      }
      phases.seed_ms = mark();
      return built;
    });
    app.log.info(phases, 'prepared');
    // Out of the startup lock and not awaited: the server listens meanwhile.
    void after.drawPictures?.().catch((error: unknown) => app.log.warn({ err: error }, 'drawing pictures failed'));
    app.addHook('onClose', async () => database.close());
    return { app, database };
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
}
