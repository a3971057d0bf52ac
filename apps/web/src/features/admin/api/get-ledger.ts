import type { AdminLedgerPage } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { useAdminPage } from './admin-writes';
import { adminKeys, queryOf } from './keys';

export const getLedger = (user: string | undefined, cursor: string | undefined) =>
  request<AdminLedgerPage>('/api/admin/ledger', { query: queryOf({ user, c: cursor, size: 25 }) });

/** Ledger entries, newest first; one user's when `user` is given. */
export const useAdminLedger = (user: string | undefined, cursor: string | undefined) =>
  useAdminPage(adminKeys.ledger(user, cursor), () => getLedger(user, cursor));
