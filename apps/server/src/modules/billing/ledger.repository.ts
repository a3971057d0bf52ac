import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { rowsOf } from '../../db/client.js';
import { hasRow } from '../../db/rows.js';
import { ledgerEntries, users } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';

export type LedgerReason = (typeof ledgerEntries.$inferInsert)['reason'];

export interface LedgerEntryInput {
  userId: string;
  /** Positive credits, negative debits. */
  amount: number;
  reason: LedgerReason;
  reference?: string | null;
  /** The same key never moves the balance twice. */
  idempotencyKey: string;
}

/**
 * Writes one ledger row and moves `users.num_tokens` by the same amount, in ONE statement
 * (so it is atomic on its own, and inside a caller's transaction too). The ledger row is
 * inserted first: a concurrent holder of the same idempotency key makes this wait and then
 * skip. The balance update takes the user's row lock, so concurrent debits serialise on it,
 * and the CHECK constraint `num_tokens >= 0` aborts the whole statement — ledger row
 * included — when a debit would take the balance below zero: that becomes
 * `insufficient_desires` (402).
 */
export async function applyLedgerEntry(
  db: Database,
  entry: LedgerEntryInput,
): Promise<{ applied: boolean; balance: number }> {
  if (!Number.isInteger(entry.amount) || entry.amount === 0)
    throw new Error('Ledger amount must be a non-zero integer');
  let rows: { inserted: number; balance: number | null }[];
  try {
    rows = rowsOf(
      await db.execute(sql`
        with l as (
          insert into ledger_entries (user_id, amount, reason, reference, idempotency_key)
          values (${entry.userId}, ${entry.amount}, ${entry.reason}, ${entry.reference ?? null}, ${entry.idempotencyKey})
          on conflict (idempotency_key) do nothing
          returning user_id, amount
        ), u as (
          update users set num_tokens = users.num_tokens + l.amount
          from l where users.id = l.user_id
          returning users.num_tokens
        )
        select (select count(*) from l)::int as inserted, (select num_tokens from u) as balance`),
    );
  } catch (error) {
    const code = pgErrorCode(error);
    if (code === '23514') throw new AppError('insufficient_desires', { status: 402 });
    if (code === '23503') throw new AppError('not_found', { status: 404 });
    throw error;
  }
  const row = rows[0];
  if (!row || Number(row.inserted) === 0) return { applied: false, balance: await readBalance(db, entry.userId) };
  return { applied: true, balance: Number(row.balance) };
}

/** The SQLSTATE of a driver error (postgres-js, PGlite, or wrapped by Drizzle). */
function pgErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let i = 0; i < 4 && current && typeof current === 'object'; i += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The user's balance (0 for an unknown user). */
export async function readBalance(db: Database, userId: string): Promise<number> {
  const [row] = await db.select({ numTokens: users.numTokens }).from(users).where(eq(users.id, userId));
  return row?.numTokens ?? 0;
}

/** The id of the ledger row written under an idempotency key, or null. */
export async function findLedgerEntryId(db: Database, idempotencyKey: string): Promise<number | null> {
  const [row] = await db
    .select({ id: ledgerEntries.id })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.idempotencyKey, idempotencyKey));
  return row?.id ?? null;
}

/**
 * True when the user has a ledger entry of this reason: with this reference when given, and at
 * or after `since` when given.
 */
export async function hasLedgerEntry(
  db: Database,
  userId: string,
  reason: LedgerReason,
  reference?: string,
  since?: Date,
): Promise<boolean> {
  return hasRow(
    db,
    ledgerEntries,
    and(
      eq(ledgerEntries.userId, userId),
      eq(ledgerEntries.reason, reason),
      reference === undefined ? undefined : eq(ledgerEntries.reference, reference),
      since === undefined ? undefined : sql`${ledgerEntries.createdAt} >= ${since.toISOString()}`,
    ),
  );
}

/** True when the user has a ledger entry of this reason since the given time. */
export function hasLedgerEntrySince(db: Database, userId: string, reason: LedgerReason, since: Date): Promise<boolean> {
  return hasLedgerEntry(db, userId, reason, undefined, since);
}

/**
 * Users whose balance differs from the sum of their ledger (should always be none); used by
 * tests, the benchmark and an operator's health check.
 */
export async function findLedgerMismatches(
  db: Database,
): Promise<{ user_id: string; num_tokens: number; ledger_sum: number }[]> {
  return rowsOf(
    await db.execute(sql`
      select u.id as user_id, u.num_tokens, coalesce(l.total, 0)::int as ledger_sum
      from users u
      left join (select user_id, sum(amount) as total from ledger_entries group by user_id) l on l.user_id = u.id
      where u.num_tokens <> coalesce(l.total, 0)`),
  );
}
