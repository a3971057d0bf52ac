import { parseArgs } from 'node:util';
import { translate } from '../lib/i18n.js';
import { runOperatorFromCommandLine } from './operator.js';

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

await runOperatorFromCommandLine({
  action: 'create',
  email: values.email.trim(),
  password: values.password,
  name: values.name,
});
