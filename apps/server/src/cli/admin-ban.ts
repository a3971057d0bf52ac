import { parseArgs } from 'node:util';
import { translate } from '../lib/i18n.js';
import { runOperatorFromCommandLine } from './operator.js';

/**
 * `npm run admin:ban -- --email a@b.c [--reason …]` bans an account: it cannot log in (log-in
 * shows the reason) and every session ends at once. `npm run admin:unban -- --email a@b.c`
 * lifts the ban. On PostgreSQL running replicas hear it through pub/sub (Redis or PostgreSQL);
 * on PGlite the command goes through the running server, which ends the sessions itself
 * (`cli/operator.ts`).
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

await runOperatorFromCommandLine(
  values.unban ? { action: 'unban', email } : { action: 'ban', email, reason: values.reason ?? null },
);
