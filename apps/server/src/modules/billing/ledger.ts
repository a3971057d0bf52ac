import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import { applyLedgerEntry, findLedgerEntryId, type LedgerReason } from './ledger.repository.js';

// Desires move through these from other modules' services (pictures, transforms, the admin
// console), on the `db` they are given: often their own transaction, so that the debit and
// what it pays for commit together.

/** Takes desires from a balance; 402 `insufficient_desires` when it would go below zero. */
export async function debitDesires(
  db: Database,
  userId: string,
  amount: number,
  options: { reason?: LedgerReason; reference?: string | null; idempotencyKey?: string } = {},
): Promise<{ applied: boolean; balance: number }> {
  if (amount <= 0) throw new Error('Debit amount must be positive');
  // One statement: atomic without a transaction round trip (applyLedgerEntry).
  return applyLedgerEntry(db, {
    userId,
    amount: -amount,
    reason: options.reason ?? 'spend',
    reference: options.reference ?? null,
    idempotencyKey: options.idempotencyKey ?? `spend:${randomUUID()}`,
  });
}

/** Adds desires to a balance through the ledger (idempotent by key). */
export async function creditDesires(
  db: Database,
  userId: string,
  amount: number,
  options: { reason: LedgerReason; reference?: string | null; idempotencyKey: string },
): Promise<{ applied: boolean; balance: number }> {
  if (amount <= 0) throw new Error('Credit amount must be positive');
  return applyLedgerEntry(db, { userId, amount, ...options });
}

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
  return { balance: result.balance, entryId: (await findLedgerEntryId(db, idempotencyKey)) ?? 0 };
}
