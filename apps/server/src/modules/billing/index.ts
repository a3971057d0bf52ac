/**
 * What other modules may use of the billing module: premium checks, desire debits, the
 * balance, an administrator's adjustment and the ledger invariant. Its repositories are its
 * own (eslint `reverie/no-foreign-repository-imports`).
 */
export { creditDesires, debitDesires, hasPremium } from './billing.service.js';
export { readBalance, findLedgerMismatches } from './ledger.repository.js';
export { adjustDesires } from './adjustments.js';
