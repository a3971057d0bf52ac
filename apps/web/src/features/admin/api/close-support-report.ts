import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminSupportReport } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { adminKeys } from './get-count';
import { REPORTS_COUNT_PATH, reportKeys } from './get-message-reports';

/** POST /api/admin/reports/support/{id}/close. */
export const closeSupportReport = (id: string) =>
  request<AdminSupportReport>(`/api/admin/reports/support/${id}/close`, { method: 'POST' });

export function useCloseSupportReport(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => closeSupportReport(id),
    onSuccess: (report) => {
      client.setQueryData(reportKeys.supportItem(id), report);
      void client.invalidateQueries({ queryKey: reportKeys.all });
      void client.invalidateQueries({ queryKey: adminKeys.count(REPORTS_COUNT_PATH) });
    },
  });
}
