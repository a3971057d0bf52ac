// issue 25, transitional: the admin console takes the other modules through the narrow
// interfaces it declares (modules/admin/admin-deps.ts). Until the accounts, billing, bots and
// transforms modules give services of their own, app.ts builds those views here from the
// functions they have today; each view then becomes the module's service (or a Pick of it).
import type { Database } from './db/client.js';
import type { AdminModuleDeps } from './modules/admin/index.js';
import type { AccountsService } from './modules/accounts/index.js';
import { banUser, endAllSessions, unbanUser } from './modules/accounts/index.js';
import { runOperatorCommand } from './modules/accounts/admin-account.js';
import { ownedChatMediaKeys } from './modules/accounts/user-data.js';
import { adjustDesires, findLedgerMismatches } from './modules/billing/index.js';
import { deletePost, findPostForUpdate, insertPost, listAllPosts, updatePost } from './modules/blog/index.js';
import { botsManage, deleteCharacters, findBotById, type BotsDeps } from './modules/bots/index.js';
import { deleteTransform, transformOfMediaKey } from './modules/transforms/index.js';
import type { Sessions } from './modules/accounts/index.js';

/** Sessions that change nothing: inside a transaction, replicas hear of it after the commit. */
const NO_SESSIONS = { endUserSessions: async () => {} };

/** The accounts, billing, bots, blog and transforms views `adminModule` is given. */
export function adminViews(options: {
  db: Database;
  sessions: Sessions;
  accounts: Pick<AccountsService, 'deleteAllData'>;
  bots: BotsDeps;
}): Pick<AdminModuleDeps, 'accounts' | 'billing' | 'bots' | 'blog' | 'transforms'> {
  const { db, sessions } = options;
  const bots = (tx: Database): BotsDeps => ({ ...options.bots, db: tx });
  return {
    accounts: {
      ban: (tx, userId, reason) => banUser({ db: tx, sessions: NO_SESSIONS }, userId, reason),
      unban: (tx, userId) => unbanUser({ db: tx, sessions: NO_SESSIONS }, userId),
      endAllSessions: (tx, userId) => endAllSessions({ db: tx, sessions: NO_SESSIONS }, userId),
      deleteAllData: (userId, extra) => options.accounts.deleteAllData(userId, extra),
      ownedChatMediaKeys,
      runOperatorCommand: (command, audit) => runOperatorCommand({ db, sessions, audit }, command),
    },
    billing: {
      adjustDesires,
      findLedgerMismatches: () => findLedgerMismatches(db),
    },
    bots: {
      findBotById: (id) => findBotById(db, id),
      listManagedBots: (query) => botsManage.listManagedBots(db, query),
      listGalleries: (botIds) => botsManage.listGalleries(db, botIds),
      listPendingReview: (limit) => botsManage.listPendingReview(db, limit),
      countPendingReview: () => botsManage.countPendingReview(db),
      createOfficialBot: (tx, input) => botsManage.createOfficialBot(bots(tx), input),
      updateManagedBot: (tx, id, patch) => botsManage.updateManagedBot(bots(tx), id, patch),
      prepareOfficialCard: (file, visibility) => botsManage.prepareOfficialCard(options.bots, file, visibility),
      lockBot: (tx, id) => botsManage.lockBot(bots(tx), id),
      setBotVisibility: (tx, id, visibility) => botsManage.setBotVisibility(bots(tx), id, visibility),
      unpublishBot: (tx, id, reason) => botsManage.unpublishBot(bots(tx), id, reason),
      decideReview: (tx, id, decision) => botsManage.decideReview(bots(tx), id, decision),
      storeGalleryFile: (botId, file) => botsManage.storeGalleryFile(options.bots, botId, file),
      addGalleryPicture: (tx, botId, key) => botsManage.addGalleryPicture(bots(tx), botId, key),
      removeGalleryPicture: (tx, botId, pictureId) => botsManage.removeGalleryPicture(bots(tx), botId, pictureId),
      giveDrawnAvatar: (row) => botsManage.giveDrawnAvatar(options.bots, row),
      reorderGallery: (tx, botId, order) => botsManage.reorderGallery(bots(tx), botId, order),
      chooseAvatar: (tx, botId, pictureId) => botsManage.chooseAvatar(bots(tx), botId, pictureId),
      deleteCharacters,
    },
    blog: { listAllPosts, findPostForUpdate, insertPost, updatePost, deletePost },
    transforms: { transformOfMediaKey, deleteTransform },
  };
}
