/**
 * What other modules may use of the accounts module (the admin console): bans, ending a
 * user's sessions, and the types of the delete-all-data path. Its repository is its own.
 */
export { banUser, unbanUser, endAllSessions, BAN_REASON_MAX, type BanDeps } from './ban.js';
export { Sessions } from './sessions.js';
/** What the auth plugin needs about a live session (defined there: plugins sit below the modules). */
export type { LiveSession } from '../../plugins/auth.js';
export type { AccountsService } from './accounts.service.js';
export type { UserDataDeleter } from './user-data.js';
/** A deleted chat's pictures, originals and voice files (the chats module). */
export { deleteChatMedia } from './user-data.js';
