import { parseArgs } from 'node:util';
import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN } from '@reverie/shared';
import { loadConfig } from '../config.js';
import { runMigrations } from '../db/migrate.js';
import { translate } from '../lib/i18n.js';
import { findUserByEmail, insertUser } from '../modules/accounts/accounts.repository.js';
import { hashPassword } from '../modules/accounts/accounts.service.js';
import { promoteToAdmin } from '../modules/accounts/admin-account.js';
import { Sessions } from '../modules/accounts/sessions.js';
import { createPubSub } from '../providers/pubsub/index.js';
import { openConfiguredDatabase } from '../runtime.js';

/**
 * `npm run admin:create -- --email a@b.c [--password …] [--name …]`: promotes an existing
 * account to administrator, or creates a confirmed administrator account (then --password is
 * needed). Idempotent. A new password for an existing account revokes its refresh tokens and
 * ends its sessions, published on the server's pub/sub like \`admin:ban\` (on PGlite a running
 * server does not hear it: stop the server first).
 */
const t = (key: string, vars: Record<string, string> = {}) => translate('en', `admin_cli.${key}`, vars);

const { values } = parseArgs({
  options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } },
  strict: true,
});
if (!values.email) {
  console.error(t('usage'));
  process.exit(2);
}
const email = values.email.trim();
if (!z.email().safeParse(email).success) {
  console.error(t('invalid_email'));
  process.exit(2);
}

const config = loadConfig();
if (!config.DATABASE_URL) console.warn(t('pglite_note'));
const database = await openConfiguredDatabase(config);
const pubsub = createPubSub(config, database, (error) => console.error(String(error)));
try {
  await runMigrations(database);
  const existing = await findUserByEmail(database.db, email);
  if (existing) {
    const sessions = new Sessions({
      db: database.db,
      pubsub,
      log: { warn: (...args: unknown[]) => console.warn(...args) },
    });
    const { passwordChanged } = await promoteToAdmin({ db: database.db, sessions }, existing, values.password);
    console.log(t(passwordChanged ? 'promoted_password' : 'promoted', { email: existing.email }));
  } else {
    const password = values.password ?? '';
    if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
      console.error(t('password_required'));
      process.exitCode = 2;
    } else {
      const name = values.name ?? email.split('@')[0]!;
      await insertUser(database.db, {
        email,
        username: name,
        name,
        passwordHash: await hashPassword(password),
        role: 'admin',
        isEmailConfirmed: true,
      });
      console.log(t('created', { email }));
    }
  }
} finally {
  await pubsub.close();
  await database.close();
}
