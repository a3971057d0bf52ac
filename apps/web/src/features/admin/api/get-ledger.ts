import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AdminLedgerPage } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { adminKeys, queryOf } from './keys';

export const getLedger = (user: string | undefined, cursor: string | undefined) =>
  request<AdminLedgerPage>('/api/admin/ledger', { query: queryOf({ user, c: cursor, size: 25 }) });

/** Ledger entries, newest first; one user's when `user` is given. */
export function useAdminLedger(user: string | undefined, cursor: string | undefined) {
  return useQuery({
    queryKey: adminKeys.ledger(user, cursor),
    queryFn: () => getLedger(user, cursor),
    placeholderData: keepPreviousData,
  });
}
