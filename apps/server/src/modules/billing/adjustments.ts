import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { ledgerEntries } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { applyLedgerEntry } from './ledger.repository.js';

/**
 * An administrator's grant (positive) or removal (negative) of desires: one ledger entry of
 * reason `adjustment` whose reference keeps the administrator's reason, moving the balance by
 * the same amount in the same statement. A removal that would take the balance below zero
 * writes nothing and answers 409 `balance_would_go_negative`. Call it inside the transaction
 * that records the change in the audit log.
 */
export async function adjustDesires(
  db: Database,
  input: { userId: string; amount: number; reason: string },
): Promise<{ balance: number; entryId: number }> {
  const idempotencyKey = `adjustment:${randomUUID()}`;
  let result: { applied: boolean; balance: number };
  try {
    result = await applyLedgerEntry(db, {
      userId: input.userId,
      amount: input.amount,
      reason: 'adjustment',
      reference: input.reason,
      idempotencyKey,
    });
  } catch (error) {
    if (error instanceof AppError && error.code === 'insufficient_desires')
      throw new AppError('balance_would_go_negative', { status: 409 });
    throw error;
  }
  if (!result.applied) throw new AppError('not_found', { status: 404 });
  const [row] = await db
    .select({ id: ledgerEntries.id })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.idempotencyKey, idempotencyKey));
  return { balance: result.balance, entryId: row?.id ?? 0 };
}
