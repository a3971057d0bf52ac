// issue 25, transitional: the admin console takes the other modules through the narrow
// interfaces it declares (modules/admin/admin-deps.ts). Until the accounts, billing and
// transforms modules give services of their own, app.ts builds those views here from the
// functions they have today; each view then becomes the module's service (or a Pick of it).
import type { Database } from './db/client.js';
import type { AdminModuleDeps } from './modules/admin/index.js';
import type { AccountsService } from './modules/accounts/index.js';
import { banUser, endAllSessions, OperatorCommands, unbanUser } from './modules/accounts/index.js';
import { adjustDesires, findLedgerMismatches } from './modules/billing/index.js';
import { deletePost, findPostForUpdate, insertPost, listAllPosts, updatePost } from './modules/blog/index.js';
import { deleteTransform, transformOfMediaKey } from './modules/transforms/index.js';
import type { Sessions } from './modules/accounts/index.js';

/** Sessions that change nothing: inside a transaction, replicas hear of it after the commit. */
const NO_SESSIONS = { endUserSessions: async () => {} };

/** The accounts, billing, blog and transforms views `adminModule` is given. */
export function adminViews(options: {
  db: Database;
  sessions: Sessions;
  accounts: Pick<AccountsService, 'deleteAllData'>;
}): Pick<AdminModuleDeps, 'accounts' | 'billing' | 'blog' | 'transforms'> {
  const { db, sessions } = options;
  return {
    accounts: {
      ban: (tx, userId, reason) => banUser({ db: tx, sessions: NO_SESSIONS }, userId, reason),
      unban: (tx, userId) => unbanUser({ db: tx, sessions: NO_SESSIONS }, userId),
      endAllSessions: (tx, userId) => endAllSessions({ db: tx, sessions: NO_SESSIONS }, userId),
      deleteAllData: (userId, extra) => options.accounts.deleteAllData(userId, extra),
      runOperatorCommand: (command, audit) => new OperatorCommands({ db, sessions, audit }).run(command),
    },
    billing: {
      adjustDesires,
      findLedgerMismatches: () => findLedgerMismatches(db),
    },
    blog: { listAllPosts, findPostForUpdate, insertPost, updatePost, deletePost },
    transforms: { transformOfMediaKey, deleteTransform },
  };
}
