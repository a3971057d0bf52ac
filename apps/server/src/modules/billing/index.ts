/**
 * What other modules may use of the billing module: premium checks, desire debits and the
 * balance. Its repositories are its own (eslint `reverie/no-foreign-repository-imports`).
 */
export { creditDesires, debitDesires, hasPremium } from './billing.service.js';
export { readBalance } from './ledger.repository.js';
