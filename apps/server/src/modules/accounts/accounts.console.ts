import type { Database } from '../../db/client.js';
import type { AuditEntry } from '../../lib/audit-entry.js';
import type { AccountsService } from './accounts.service.js';
import { OperatorCommands, type OperatorCommand } from './admin-account.js';
import { banUser, endAllSessions, unbanUser } from './ban.js';
import type { Sessions } from './sessions.js';
import type { UserDataDeleter } from './user-data.js';

export interface AccountsConsoleDeps {
  db: Database;
  sessions: Sessions;
  accounts: Pick<AccountsService, 'deleteAllData'>;
}

/** Inside a transaction the sessions are left alone: the console ends them after its commit. */
const NO_SESSIONS = { endUserSessions: async () => {} };

/**
 * What the admin console does with accounts. The methods taking `tx` write inside the
 * console's transaction, so a ban and its audit record commit together.
 */
export class AccountsConsole {
  constructor(private readonly deps: AccountsConsoleDeps) {}

  ban(tx: Database, userId: string, reason: string) {
    return banUser({ db: tx, sessions: NO_SESSIONS }, userId, reason);
  }

  unban(tx: Database, userId: string) {
    return unbanUser({ db: tx, sessions: NO_SESSIONS }, userId);
  }

  /** Revokes every refresh token of the user in `tx`. */
  endAllSessions(tx: Database, userId: string) {
    return endAllSessions({ db: tx, sessions: NO_SESSIONS }, userId);
  }

  /** The delete-all-data path (the subscription cancelled first); `extra` run in its transaction. */
  deleteAllData(userId: string, extra: UserDataDeleter[]) {
    return this.deps.accounts.deleteAllData(userId, extra);
  }

  /** `npm run admin:create|ban|unban`, each change recorded by `audit`. */
  runOperatorCommand(command: OperatorCommand, audit: (entry: AuditEntry) => Promise<void>) {
    return new OperatorCommands({ db: this.deps.db, sessions: this.deps.sessions, audit }).run(command);
  }
}
