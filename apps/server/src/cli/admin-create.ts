import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { DatabaseLockedError } from '../db/pglite-lock.js';
import { translate } from '../lib/i18n.js';
import { runOperatorCli } from './operator.js';

/**
 * `npm run admin:create -- --email a@b.c [--password …] [--name …]`: promotes an existing
 * account to administrator, or creates a confirmed administrator account (then --password is
 * needed). Idempotent. A new password for an existing account revokes its refresh tokens and
 * ends its sessions. Works while the server runs: on PostgreSQL on the shared database, on
 * PGlite through the running server (`cli/operator.ts`).
 */
const t = (key: string, vars: Record<string, string> = {}) => translate('en', `admin_cli.${key}`, vars);

const { values } = parseArgs({
  options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } },
  strict: true,
});
if (!values.email?.trim()) {
  console.error(t('usage'));
  process.exit(2);
}

try {
  const result = await runOperatorCli(loadConfig(), {
    action: 'create',
    email: values.email.trim(),
    password: values.password,
    name: values.name,
  });
  (result.exitCode === 0 ? console.log : console.error)(result.message);
  process.exitCode = result.exitCode;
} catch (error) {
  if (!(error instanceof DatabaseLockedError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
