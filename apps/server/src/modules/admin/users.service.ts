import type { AdminLedgerPage, AdminUserDetail, AdminUserList } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { decodeCursor, keysetPage } from '../../lib/cursor.js';
import type { AuditEntry } from '../../lib/audit-entry.js';
import { AppError } from '../../lib/errors.js';
import { banUser, endAllSessions, unbanUser } from '../accounts/index.js';
import { adjustDesires } from '../billing/index.js';
import type { AdminDeps } from './admin-deps.js';
import { recordAudit } from './audit.repository.js';
import * as repo from './users.repository.js';
import { auditView, presentLedgerEntry, presentUserDetail, presentUserSummary } from './users.presenter.js';

type UsersDeps = Pick<AdminDeps, 'db' | 'sessions' | 'accounts'>;

/** Sessions that change nothing: inside a transaction, replicas hear of it after the commit. */
const NO_SESSIONS = { endUserSessions: async () => {} };

const selfAction = () => new AppError('admin_self_action', { status: 409 });

/**
 * The Users section: search, a user's page, and the writes an administrator makes on an
 * account. Each write locks the user's row, makes the change and records it in the audit log
 * in one transaction; the replicas forget the user's sessions after the commit.
 */
export class AdminUsersService {
  constructor(private readonly deps: UsersDeps) {}

  async search(q: string, offset: number, size: number): Promise<AdminUserList> {
    const { rows, total } = await repo.searchUsers(this.deps.db, q, offset, size);
    const next = offset + rows.length;
    return {
      results: rows.map(presentUserSummary),
      total,
      offset,
      next_offset: next < total && rows.length === size ? next : null,
    };
  }

  async detail(id: string): Promise<AdminUserDetail> {
    const user = await repo.findUser(this.deps.db, id);
    if (!user) throw new AppError('not_found', { status: 404 });
    const [payments, subscriptions, sessions] = await Promise.all([
      repo.listPayments(this.deps.db, { size: 50, userId: id }),
      repo.listUserSubscriptions(this.deps.db, id),
      repo.listSessions(this.deps.db, id),
    ]);
    return presentUserDetail(user, { payments, subscription: subscriptions[0] ?? null, sessions });
  }

  async ledger(options: { userId?: string; cursor?: string; size: number }): Promise<AdminLedgerPage> {
    const after = decodeCursor(options.cursor, ['int'] as const);
    const rows = await repo.listLedger(this.deps.db, {
      size: options.size + 1,
      afterId: after ? after[0] : null,
      userId: options.userId,
    });
    return keysetPage(rows, options.size, presentLedgerEntry, (last) => [Number(last.id)]);
  }

  /** Grants (amount > 0) or removes (amount < 0) desires: one ledger entry with the reason. */
  async adjustDesires(actorId: string, userId: string, amount: number, reason: string) {
    return this.writeUser(actorId, userId, reason, async (db, user) => {
      const { balance, entryId } = await adjustDesires(db, { userId, amount, reason });
      return {
        audit: {
          action: amount > 0 ? 'user.grant_desires' : 'user.remove_desires',
          before: { balance: user.numTokens },
          after: { balance, amount, ledger_entry: entryId },
        },
        result: { balance, entry_id: entryId },
      };
    });
  }

  async ban(actorId: string, userId: string, reason: string): Promise<void> {
    if (actorId === userId) throw selfAction();
    await this.writeUser(actorId, userId, reason, async (db, user) => {
      const banned = await banUser({ db, sessions: NO_SESSIONS }, userId, reason);
      return { audit: { action: 'user.ban', before: auditView(user), after: auditView(banned) }, result: undefined };
    });
    await this.deps.sessions.endUserSessions(userId);
  }

  async unban(actorId: string, userId: string, reason: string | null): Promise<void> {
    await this.writeUser(actorId, userId, reason, async (db, user) => {
      const unbanned = await unbanUser({ db, sessions: NO_SESSIONS }, userId);
      return {
        audit: { action: 'user.unban', before: auditView(user), after: auditView(unbanned) },
        result: undefined,
      };
    });
    await this.deps.sessions.endUserSessions(userId);
  }

  async endSessions(actorId: string, userId: string, reason: string | null): Promise<void> {
    await this.writeUser(actorId, userId, reason, async (db) => {
      const before = (await repo.listSessions(db, userId)).filter((s) => s.live).length;
      await endAllSessions({ db, sessions: NO_SESSIONS }, userId);
      return {
        audit: { action: 'user.end_sessions', before: { live_sessions: before }, after: { live_sessions: 0 } },
        result: undefined,
      };
    });
    await this.deps.sessions.endUserSessions(userId);
  }

  async setRole(actorId: string, userId: string, role: 'user' | 'admin', reason: string | null): Promise<void> {
    if (actorId === userId && role !== 'admin') throw selfAction();
    await this.writeUser(actorId, userId, reason, async (db, user) => {
      if (user.role === role) return { audit: null, result: undefined };
      await repo.setRole(db, userId, role);
      return {
        audit: {
          action: role === 'admin' ? 'user.promote' : 'user.demote',
          before: { role: user.role },
          after: { role },
        },
        result: undefined,
      };
    });
    // Sessions stay; every replica reads the new role on the next request.
    await this.deps.sessions.endUserSessions(userId);
  }

  /**
   * One write on a user: in a transaction, the user's row locked (404 without one), `change`
   * makes it and says what the audit log records (null: nothing changed, nothing recorded).
   */
  private writeUser<T>(
    actorId: string,
    userId: string,
    reason: string | null,
    change: (
      db: Database,
      user: repo.AdminUserRow,
    ) => Promise<{ audit: Pick<AuditEntry, 'action' | 'before' | 'after'> | null; result: T }>,
  ): Promise<T> {
    return this.deps.db.transaction(async (tx) => {
      const db = tx as unknown as Database;
      const user = await repo.lockUser(db, userId);
      if (!user) throw new AppError('not_found', { status: 404 });
      const { audit, result } = await change(db, user);
      if (audit) await recordAudit(db, actorId, { ...audit, targetType: 'user', targetId: userId, reason });
      return result;
    });
  }

  /** Deletes the account through the accounts module's delete-all-data path (subscription cancelled first). */
  async delete(actorId: string, userId: string, reason: string): Promise<void> {
    if (actorId === userId) throw selfAction();
    const user = await repo.findUser(this.deps.db, userId);
    if (!user) throw new AppError('not_found', { status: 404 });
    await this.deps.accounts.deleteAllData(userId, [
      {
        name: 'audit_log',
        delete: async (tx, target) =>
          recordAudit(tx, actorId, {
            action: 'user.delete',
            targetType: 'user',
            targetId: target.id,
            before: auditView(target),
            after: null,
            reason,
          }),
      },
    ]);
  }
}
