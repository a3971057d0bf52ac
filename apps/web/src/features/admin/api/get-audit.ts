import type { AdminAuditPage } from '@reverie/shared';
import { useFilteredPage } from './admin-writes';
import { adminKeys } from './keys';

export interface AuditFilters {
  action?: string;
  target_type?: string;
  target_id?: string;
  c?: string;
}

/** GET /api/admin/audit, 25 entries a page. */
export const useAdminAudit = (filters: AuditFilters) =>
  useFilteredPage<AdminAuditPage>('/api/admin/audit', adminKeys.audit({ ...filters }), { ...filters });
