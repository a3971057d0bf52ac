import { PASSWORD_MAX, PASSWORD_MIN } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { banUser, unbanUser } from './ban.js';
import * as repo from './accounts.repository.js';
import type { UserRow } from './accounts.repository.js';
import { hashPassword } from './accounts.service.js';
import type { Sessions } from './sessions.js';
import type { AuditEntry } from '../../lib/audit-entry.js';

/** What an operator asks of `npm run admin:create|admin:ban|admin:unban` (directly or through a running server). */
export type OperatorCommand =
  | { action: 'create'; email: string; password?: string; name?: string }
  | { action: 'ban'; email: string; reason?: string | null }
  | { action: 'unban'; email: string };

/** The outcome; its text is `admin_cli.<outcome>` ({{email}}). */
export type OperatorOutcome =
  | 'created'
  | 'promoted'
  | 'promoted_password'
  | 'banned'
  | 'unbanned'
  | 'user_not_found'
  | 'password_required'
  | 'invalid_email';

/** Exit code of the command line for each outcome. */
export const OPERATOR_EXIT_CODES: Record<OperatorOutcome, number> = {
  created: 0,
  promoted: 0,
  promoted_password: 0,
  banned: 0,
  unbanned: 0,
  user_not_found: 1,
  password_required: 2,
  invalid_email: 2,
};

export interface OperatorCommandsDeps {
  db: Database;
  sessions: Pick<Sessions, 'endUserSessions'>;
  /** Records each change in the audit log (the caller knows where it lives). */
  audit?: (entry: AuditEntry) => Promise<void>;
}

/**
 * The operator's commands on the database: make (or promote) an administrator, ban or unban
 * an account. The same code runs in the command line (PostgreSQL, or PGlite with no server
 * running) and in a running server (`POST /api/local/admin`), so a server on PGlite sees the
 * change at once.
 */
export class OperatorCommands {
  constructor(private readonly deps: OperatorCommandsDeps) {}

  /**
   * Makes an existing account an administrator (`npm run admin:create`). With a password the
   * password changes too, and like a password reset every refresh token is revoked and every
   * session ends at once (on every replica that hears the pub/sub).
   */
  async promoteToAdmin(user: UserRow, password?: string): Promise<{ passwordChanged: boolean }> {
    const { db, sessions } = this.deps;
    await repo.updateUser(db, user.id, {
      role: 'admin',
      ...(password ? { passwordHash: await hashPassword(password) } : {}),
    });
    if (!password) return { passwordChanged: false };
    await repo.revokeAllRefreshTokens(db, user.id);
    await sessions.endUserSessions(user.id);
    return { passwordChanged: true };
  }

  /** Runs one command; the outcome names what happened (its text is `admin_cli.<outcome>`). */
  async run(command: OperatorCommand): Promise<{ outcome: OperatorOutcome; email: string }> {
    const deps = this.deps;
    const audit = deps.audit ?? (async () => undefined);
    const email = command.email.trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254) return { outcome: 'invalid_email', email };
    const existing = await repo.findUserByEmail(deps.db, email);
    if (command.action === 'create') {
      if (existing) {
        const { passwordChanged } = await this.promoteToAdmin(existing, command.password);
        await audit({
          action: 'user.role',
          targetType: 'user',
          targetId: existing.id,
          before: { role: existing.role },
          after: { role: 'admin', password_changed: passwordChanged },
        });
        return { outcome: passwordChanged ? 'promoted_password' : 'promoted', email: existing.email };
      }
      const password = command.password ?? '';
      if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX)
        return { outcome: 'password_required', email };
      const name = command.name?.trim() || email.split('@')[0]!;
      const created = await repo.insertUser(deps.db, {
        email,
        username: name,
        name,
        passwordHash: await hashPassword(password),
        role: 'admin',
        isEmailConfirmed: true,
      });
      if (created)
        await audit({
          action: 'user.create_admin',
          targetType: 'user',
          targetId: created.id,
          after: { role: 'admin' },
        });
      return { outcome: 'created', email };
    }
    if (!existing) return { outcome: 'user_not_found', email };
    if (command.action === 'unban') {
      await unbanUser(deps, existing.id);
      await audit({
        action: 'user.unban',
        targetType: 'user',
        targetId: existing.id,
        before: { banned: true },
        after: { banned: false },
      });
      return { outcome: 'unbanned', email: existing.email };
    }
    await banUser(deps, existing.id, command.reason ?? null);
    await audit({
      action: 'user.ban',
      targetType: 'user',
      targetId: existing.id,
      before: { banned: existing.bannedAt !== null },
      after: { banned: true },
      reason: command.reason ?? null,
    });
    return { outcome: 'banned', email: existing.email };
  }
}
