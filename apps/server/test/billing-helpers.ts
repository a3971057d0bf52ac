import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Database } from '../src/db/client.js';
import { rowsOf } from '../src/db/client.js';
import { creditDesires, findLedgerMismatches } from '../src/modules/billing/index.js';

/** The ledger invariant: every balance equals the sum of its ledger rows. */
export async function expectLedgerMatchesBalances(db: Database): Promise<void> {
  expect(await findLedgerMismatches(db)).toEqual([]);
}

/** Gives a test user desires through the ledger (never by writing num_tokens directly). */
export async function grantDesires(db: Database, userId: string, amount: number): Promise<void> {
  await creditDesires(db, userId, amount, { reason: 'adjustment', idempotencyKey: `test:${userId}:${Math.random()}` });
}

export async function balanceOf(db: Database, userId: string): Promise<number> {
  return Number(
    rowsOf<{ n: number }>(await db.execute(sql`select num_tokens as n from users where id = ${userId}`))[0]?.n,
  );
}
