import { parseArgs } from 'node:util';
import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN } from '@reverie/shared';
import { loadConfig } from '../config.js';
import { runMigrations } from '../db/migrate.js';
import { translate } from '../lib/i18n.js';
import { findUserByEmail, insertUser, updateUser } from '../modules/accounts/accounts.repository.js';
import { hashPassword } from '../modules/accounts/accounts.service.js';
import { openConfiguredDatabase } from '../runtime.js';

/**
 * `npm run admin:create -- --email a@b.c [--password …] [--name …]`: promotes an existing
 * account to administrator, or creates a confirmed administrator account (then --password is
 * needed). Idempotent.
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
const database = await openConfiguredDatabase(config);
try {
  await runMigrations(database);
  const existing = await findUserByEmail(database.db, email);
  if (existing) {
    await updateUser(database.db, existing.id, {
      role: 'admin',
      ...(values.password ? { passwordHash: await hashPassword(values.password) } : {}),
    });
    console.log(t('promoted', { email: existing.email }));
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
  await database.close();
}
