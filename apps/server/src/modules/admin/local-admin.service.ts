import type { AdminDeps, OperatorCommand, OperatorResult } from './admin-deps.js';
import { recordAudit } from './audit.repository.js';

/**
 * The operator commands a running server runs for `npm run admin:create|ban|unban` (the
 * accounts module does the work); each change is recorded in the audit log with no actor.
 */
export class LocalAdminService {
  constructor(private readonly deps: Pick<AdminDeps, 'db' | 'accounts'>) {}

  run(command: OperatorCommand): Promise<OperatorResult> {
    return this.deps.accounts.runOperatorCommand(command, (entry) => recordAudit(this.deps.db, null, entry));
  }
}
