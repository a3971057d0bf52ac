import type { AdminSupportReport } from '@reverie/shared';
import { useDecision } from './admin-writes';
import { REPORTS_COUNT_PATH, reportKeys } from './get-message-reports';

/** POST /api/admin/reports/support/{id}/close (no body). */
export const useCloseSupportReport = (id: string) =>
  useDecision<AdminSupportReport>(`/api/admin/reports/support/${id}/close`, {
    item: reportKeys.supportItem(id),
    queue: reportKeys.all,
    countPath: REPORTS_COUNT_PATH,
  });
