import { useQuery } from '@tanstack/react-query';
import type { AdminLedgerCheck } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { adminKeys } from './keys';

export const checkLedger = () => request<AdminLedgerCheck>('/api/admin/ledger/check');

/** The ledger invariant (every balance = the sum of its entries), checked by the server. */
export function useLedgerCheck() {
  return useQuery({ queryKey: adminKeys.ledgerCheck(), queryFn: checkLedger });
}
