import { loadConfig, type Config } from '../config.js';
import { runMigrations } from '../db/migrate.js';
import { DatabaseLockedError, pgliteLockHolder } from '../db/pglite-lock.js';
import { translate } from '../lib/i18n.js';
import {
  OPERATOR_EXIT_CODES,
  OperatorCommands,
  Sessions,
  type OperatorCommand,
  type OperatorOutcome,
} from '../modules/accounts/index.js';
import { recordAudit } from '../modules/admin/audit.repository.js';
import { LOCAL_ADMIN_KEY_HEADER, readLocalAdminKey } from '../modules/admin/local-admin.js';
import { createPubSub } from '../providers/pubsub/index.js';
import { configuredPgliteDir, openConfiguredDatabase } from '../runtime.js';

const t = (key: string, vars: Record<string, string> = {}) => translate('en', `admin_cli.${key}`, vars);

export interface OperatorResult {
  outcome: OperatorOutcome | 'server_unreachable';
  /** The line to print (English, like the rest of the command line). */
  message: string;
  exitCode: number;
  /** Where it ran: in this process, or through the running server. */
  via: 'database' | 'server';
}

/**
 * Runs a command for `npm run admin:…`: prints its line (errors on stderr) and sets the exit
 * code; a PGlite directory another process holds (and no server to go through) is one line, exit code 1.
 */
export async function runOperatorFromCommandLine(command: OperatorCommand): Promise<void> {
  try {
    const result = await runOperatorCli(loadConfig(), command);
    (result.exitCode === 0 ? console.log : console.error)(result.message);
    process.exitCode = result.exitCode;
  } catch (error) {
    if (!(error instanceof DatabaseLockedError)) throw error;
    console.error(error.message);
    process.exitCode = 1;
  }
}

/**
 * `npm run admin:create|admin:ban|admin:unban`. On PostgreSQL the command runs on the shared
 * database (running replicas hear session changes through pub/sub). On PGlite, when a running
 * server holds the data directory, the command goes through that server
 * (`POST /api/local/admin` with the key it wrote to `DATA_DIR/local-admin.json`), so the server
 * sees the administrator at once; with no server running, the command opens the directory
 * itself (taking its lock).
 */
export async function runOperatorCli(config: Config, command: OperatorCommand): Promise<OperatorResult> {
  if (!config.DATABASE_URL) {
    const holder = pgliteLockHolder(configuredPgliteDir(config));
    if (holder) return throughServer(config, command, holder.pid);
  }
  const database = await openConfiguredDatabase(config, `admin:${command.action}`);
  const pubsub = createPubSub(config, database, (error) => console.error(String(error)));
  try {
    await runMigrations(database);
    const sessions = new Sessions({
      db: database.db,
      pubsub,
      log: { warn: (...args: unknown[]) => console.warn(...args) },
    });
    const commands = new OperatorCommands({
      db: database.db,
      sessions,
      audit: (entry) => recordAudit(database.db, null, entry),
    });
    const { outcome, email } = await commands.run(command);
    return { outcome, message: t(outcome, { email }), exitCode: OPERATOR_EXIT_CODES[outcome], via: 'database' };
  } finally {
    await pubsub.close();
    await database.close();
  }
}

async function throughServer(config: Config, command: OperatorCommand, pid: number): Promise<OperatorResult> {
  const file = readLocalAdminKey(config.dataDir);
  const unreachable = (): OperatorResult => ({
    outcome: 'server_unreachable',
    message: t('server_unreachable', { pid: String(pid), file: 'DATA_DIR/local-admin.json' }),
    exitCode: 1,
    via: 'server',
  });
  if (!file || file.pid !== pid) return unreachable();
  let response: Response;
  try {
    response = await fetch(`${file.url}/api/local/admin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [LOCAL_ADMIN_KEY_HEADER]: file.key },
      body: JSON.stringify(command),
      signal: AbortSignal.timeout(30_000),
    });
  } catch {
    return unreachable();
  }
  if (!response.ok) return unreachable();
  const { outcome, email } = (await response.json()) as { outcome: OperatorOutcome; email: string };
  return { outcome, message: t(outcome, { email }), exitCode: OPERATOR_EXIT_CODES[outcome], via: 'server' };
}
