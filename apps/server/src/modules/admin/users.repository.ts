import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { rowsOf } from '../../db/client.js';
import { ledgerEntries, payments, subscriptions, users } from '../../db/schema.js';
import { microsecondText } from './audit.repository.js';

export type AdminUserRow = typeof users.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect & { userEmail: string | null; cursorAt: string };
export type LedgerRow = typeof ledgerEntries.$inferSelect & { userEmail: string | null };
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export interface SessionRow {
  id: string;
  created_at: Date | string;
  last_used_at: Date | string;
  expires_at: Date | string;
  live: boolean;
}

/** `%`, `_` and `\` match themselves in a LIKE pattern. */
const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Users whose name, username or e-mail contains the text (case-insensitive), newest first,
 * one offset page, with the number of matches.
 */
export async function searchUsers(
  db: Database,
  q: string,
  offset: number,
  size: number,
): Promise<{ rows: AdminUserRow[]; total: number }> {
  const pattern = `%${likeEscape(q.toLowerCase())}%`;
  const where = q
    ? sql`(lower(${users.name}) like ${pattern} or lower(${users.username}) like ${pattern} or lower(${users.email}) like ${pattern})`
    : undefined;
  const rows = await db
    .select()
    .from(users)
    .where(where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(size)
    .offset(offset);
  const [count] = await db
    .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
    .from(users)
    .where(where);
  return { rows, total: count?.n ?? 0 };
}

export async function findUser(db: Database, id: string): Promise<AdminUserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

/** The user's row, locked until the transaction ends (admin writes take turns on it). */
export async function lockUser(tx: Database, id: string): Promise<AdminUserRow | null> {
  const [row] = await tx.select().from(users).where(eq(users.id, id)).for('update').limit(1);
  return row ?? null;
}

export async function setRole(tx: Database, id: string, role: 'user' | 'admin'): Promise<void> {
  await tx.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, id));
}

/** The user's refresh-token families: when each began, was last used, and whether it is live. */
export async function listSessions(db: Database, userId: string): Promise<SessionRow[]> {
  return rowsOf<SessionRow>(
    await db.execute(sql`
      select family_id as id, min(created_at) as created_at,
             greatest(max(created_at), max(coalesce(used_at, created_at))) as last_used_at,
             max(expires_at) as expires_at,
             bool_or(revoked_at is null and expires_at > now()) as live
      from refresh_tokens where user_id = ${userId}
      group by family_id
      order by max(created_at) desc
      limit 50`),
  );
}

export async function listUserSubscriptions(db: Database, userId: string): Promise<SubscriptionRow[]> {
  return db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId))
    .orderBy(desc(subscriptions.currentPeriodEnd))
    .limit(1);
}

const paymentColumns = {
  id: payments.id,
  userId: payments.userId,
  provider: payments.provider,
  providerRef: payments.providerRef,
  plan: payments.plan,
  amountCents: payments.amountCents,
  currency: payments.currency,
  status: payments.status,
  refundReason: payments.refundReason,
  trialDays: payments.trialDays,
  refundedCents: payments.refundedCents,
  chargeRef: payments.chargeRef,
  createdAt: payments.createdAt,
  updatedAt: payments.updatedAt,
  userEmail: users.email,
  cursorAt: microsecondText(sql`${payments.createdAt}`),
};

/** Payments, newest first, a keyset page after `(createdAt, id)`; optionally filtered. */
export async function listPayments(
  db: Database,
  options: {
    size: number;
    after?: { createdAt: string; id: string } | null;
    userId?: string;
    status?: 'pending' | 'paid' | 'failed';
    provider?: 'sandbox' | 'stripe' | 'nowpayments';
  },
): Promise<PaymentRow[]> {
  const conditions = [];
  if (options.after)
    conditions.push(
      sql`(${payments.createdAt}, ${payments.id}) < (${options.after.createdAt}::timestamptz, ${options.after.id}::uuid)`,
    );
  if (options.userId) conditions.push(eq(payments.userId, options.userId));
  if (options.status) conditions.push(eq(payments.status, options.status));
  if (options.provider) conditions.push(eq(payments.provider, options.provider));
  return db
    .select(paymentColumns)
    .from(payments)
    .leftJoin(users, eq(users.id, payments.userId))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(options.size);
}

/** Ledger entries, newest first (by id), a keyset page below `afterId`; optionally one user. */
export async function listLedger(
  db: Database,
  options: { size: number; afterId?: number | null; userId?: string },
): Promise<LedgerRow[]> {
  const conditions = [];
  if (options.afterId) conditions.push(lt(ledgerEntries.id, options.afterId));
  if (options.userId) conditions.push(eq(ledgerEntries.userId, options.userId));
  return db
    .select({
      id: ledgerEntries.id,
      userId: ledgerEntries.userId,
      amount: ledgerEntries.amount,
      reason: ledgerEntries.reason,
      reference: ledgerEntries.reference,
      idempotencyKey: ledgerEntries.idempotencyKey,
      createdAt: ledgerEntries.createdAt,
      userEmail: users.email,
    })
    .from(ledgerEntries)
    .leftJoin(users, eq(users.id, ledgerEntries.userId))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(ledgerEntries.id))
    .limit(options.size);
}

export async function countUsers(db: Database): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int`.mapWith(Number) }).from(users);
  return row?.n ?? 0;
}

export async function emailsOf(db: Database, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = rowsOf<{ id: string; email: string }>(
    await db.execute(
      sql`select id, email from users where id in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    ),
  );
  return new Map(rows.map((r) => [r.id, r.email]));
}
