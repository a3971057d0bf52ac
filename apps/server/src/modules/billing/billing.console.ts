import type { Database } from '../../db/client.js';
import { adjustDesires } from './ledger.js';
import { findLedgerMismatches } from './ledger.repository.js';

/** What the admin console does with desires: adjustments in its transaction, the ledger check. */
export class BillingConsole {
  constructor(private readonly deps: { db: Database }) {}

  /** One ledger entry granting (> 0) or removing (< 0) desires, in `tx`; never below zero (409). */
  adjustDesires(tx: Database, change: { userId: string; amount: number; reason: string }) {
    return adjustDesires(tx, change);
  }

  /** The users whose balance differs from the sum of their ledger entries. */
  findLedgerMismatches() {
    return findLedgerMismatches(this.deps.db);
  }
}
