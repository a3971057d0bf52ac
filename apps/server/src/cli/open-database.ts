import type { Config } from '../config.js';
import type { DatabaseHandle } from '../db/client.js';
import { DatabaseLockedError } from '../db/pglite-lock.js';
import { openConfiguredDatabase } from '../runtime.js';

/**
 * Opens the configured database for a command; when another process holds the embedded one,
 * prints who (no stack trace) and exits with 1.
 */
export async function openDatabaseForCommand(config: Config, role: string): Promise<DatabaseHandle> {
  try {
    return await openConfiguredDatabase(config, role);
  } catch (error) {
    if (!(error instanceof DatabaseLockedError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
