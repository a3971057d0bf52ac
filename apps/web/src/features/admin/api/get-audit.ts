import type { AdminAuditPage } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { useAdminPage } from './admin-writes';
import { adminKeys, queryOf } from './keys';

export interface AuditFilters {
  action?: string;
  target_type?: string;
  target_id?: string;
  c?: string;
}

export const getAudit = (filters: AuditFilters) =>
  request<AdminAuditPage>('/api/admin/audit', { query: queryOf({ ...filters, size: 25 }) });

export const useAdminAudit = (filters: AuditFilters) =>
  useAdminPage(adminKeys.audit({ ...filters }), () => getAudit(filters));
