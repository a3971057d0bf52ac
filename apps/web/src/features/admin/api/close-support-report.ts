import { useMutation } from '@tanstack/react-query';
import type { AdminSupportReport } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { useDecisionWritten } from './admin-writes';
import { REPORTS_COUNT_PATH, reportKeys } from './get-message-reports';

/** POST /api/admin/reports/support/{id}/close. */
export const closeSupportReport = (id: string) =>
  request<AdminSupportReport>(`/api/admin/reports/support/${id}/close`, { method: 'POST' });

export function useCloseSupportReport(id: string) {
  const written = useDecisionWritten<AdminSupportReport>({
    item: reportKeys.supportItem(id),
    queue: reportKeys.all,
    countPath: REPORTS_COUNT_PATH,
  });
  return useMutation({ mutationFn: () => closeSupportReport(id), onSuccess: written });
}
