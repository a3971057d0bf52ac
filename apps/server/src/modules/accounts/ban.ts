import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import * as repo from './accounts.repository.js';
import type { UserRow } from './accounts.repository.js';
import type { Sessions } from './sessions.js';

/** What banning needs: the database and the sessions to end (no mail, no tokens). */
export interface BanDeps {
  db: Database;
  sessions: Pick<Sessions, 'endUserSessions'>;
}

/** Longest ban reason kept (it is shown to the user at log-in). */
export const BAN_REASON_MAX = 500;

/**
 * Bans an account: `banned_at` and the reason are set, every refresh token is revoked and
 * every replica forgets the user's sessions, so each access token answers 401 at once.
 * Banning again updates the reason and keeps the first ban's time.
 */
export async function banUser(deps: BanDeps, userId: string, reason: string | null): Promise<UserRow> {
  const user = await repo.findUserById(deps.db, userId);
  if (!user) throw new AppError('not_found', { status: 404 });
  const banReason = reason?.trim().slice(0, BAN_REASON_MAX) || null;
  const banned = await repo.setUserBan(deps.db, userId, { bannedAt: user.bannedAt ?? new Date(), banReason });
  if (!banned) throw new AppError('not_found', { status: 404 });
  await repo.revokeAllRefreshTokens(deps.db, userId);
  await deps.sessions.endUserSessions(userId);
  return banned;
}

/** Lifts a ban. Sessions that ended stay ended: the user logs in again. */
export async function unbanUser(deps: BanDeps, userId: string): Promise<UserRow> {
  const user = await repo.setUserBan(deps.db, userId, null);
  if (!user) throw new AppError('not_found', { status: 404 });
  return user;
}

/**
 * Ends every session of the user: its refresh tokens are revoked and every replica forgets
 * its sessions, so each access token answers 401 at once (the account stays as it is).
 */
export async function endAllSessions(deps: BanDeps, userId: string): Promise<void> {
  await repo.revokeAllRefreshTokens(deps.db, userId);
  await deps.sessions.endUserSessions(userId);
}
