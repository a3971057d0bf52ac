import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AdminAuditPage } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { adminKeys, queryOf } from './keys';

export interface AuditFilters {
  action?: string;
  target_type?: string;
  target_id?: string;
  c?: string;
}

export const getAudit = (filters: AuditFilters) =>
  request<AdminAuditPage>('/api/admin/audit', { query: queryOf({ ...filters, size: 25 }) });

export function useAdminAudit(filters: AuditFilters) {
  return useQuery({
    queryKey: adminKeys.audit({ ...filters }),
    queryFn: () => getAudit(filters),
    placeholderData: keepPreviousData,
  });
}
