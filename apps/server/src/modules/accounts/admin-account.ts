import type { Database } from '../../db/client.js';
import * as repo from './accounts.repository.js';
import type { UserRow } from './accounts.repository.js';
import { hashPassword } from './accounts.service.js';
import type { Sessions } from './sessions.js';

/**
 * Makes an existing account an administrator (`npm run admin:create`). With a password the
 * password changes too, and like a password reset every refresh token is revoked and every
 * session ends at once (on every replica that hears the pub/sub).
 */
export async function promoteToAdmin(
  deps: { db: Database; sessions: Pick<Sessions, 'endUserSessions'> },
  user: UserRow,
  password?: string,
): Promise<{ passwordChanged: boolean }> {
  await repo.updateUser(deps.db, user.id, {
    role: 'admin',
    ...(password ? { passwordHash: await hashPassword(password) } : {}),
  });
  if (!password) return { passwordChanged: false };
  await repo.revokeAllRefreshTokens(deps.db, user.id);
  await deps.sessions.endUserSessions(user.id);
  return { passwordChanged: true };
}
