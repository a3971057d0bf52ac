import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { runMigrations } from '../db/migrate.js';
import { translate } from '../lib/i18n.js';
import { banUser, unbanUser } from '../modules/accounts/ban.js';
import { findUserByEmail } from '../modules/accounts/accounts.repository.js';
import { Sessions } from '../modules/accounts/sessions.js';
import { createPubSub } from '../providers/pubsub/index.js';
import { openConfiguredDatabase } from '../runtime.js';

/**
 * `npm run admin:ban -- --email a@b.c [--reason …]` bans an account: it cannot log in (log-in
 * shows the reason) and every session ends at once — running replicas hear it through the
 * same pub/sub as the server (Redis or PostgreSQL). `npm run admin:unban -- --email a@b.c`
 * lifts the ban. On PGlite (no DATABASE_URL) there is no pub/sub between processes and two
 * processes must not open one data directory: the server has to be stopped first (the CLI
 * says so); a server left running would refuse the user's tokens only when its session cache
 * expires (20 s).
 */
const t = (key: string, vars: Record<string, string> = {}) => translate('en', `admin_cli.${key}`, vars);

const { values } = parseArgs({
  options: { email: { type: 'string' }, reason: { type: 'string' }, unban: { type: 'boolean', default: false } },
  strict: true,
});
if (!values.email?.trim()) {
  console.error(t('ban_usage'));
  process.exit(2);
}
const email = values.email.trim();

const config = loadConfig();
// On PGlite the server's pub/sub is in its own process: a running server would not hear this.
if (!config.DATABASE_URL) console.warn(t('pglite_note'));
const database = await openConfiguredDatabase(config);
const pubsub = createPubSub(config, database, (error) => console.error(String(error)));
try {
  await runMigrations(database);
  const user = await findUserByEmail(database.db, email);
  if (!user) {
    console.error(t('user_not_found', { email }));
    process.exitCode = 1;
  } else if (values.unban) {
    await unbanUser({ db: database.db, sessions: { endUserSessions: async () => {} } }, user.id);
    console.log(t('unbanned', { email: user.email }));
  } else {
    const sessions = new Sessions({
      db: database.db,
      pubsub,
      log: { warn: (...args: unknown[]) => console.warn(...args) },
    });
    await banUser({ db: database.db, sessions }, user.id, values.reason ?? null);
    console.log(t('banned', { email: user.email }));
  }
} finally {
  await pubsub.close();
  await database.close();
}
