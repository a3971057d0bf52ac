import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminMessageReportDetail } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { adminKeys } from './get-count';
import { REPORTS_COUNT_PATH, reportKeys } from './get-message-reports';

/** POST /api/admin/reports/messages/{id}/resolve. */
export const resolveMessageReport = (id: number, note: string) =>
  request<AdminMessageReportDetail>(`/api/admin/reports/messages/${id}/resolve`, {
    method: 'POST',
    body: { note },
  });

export function useResolveMessageReport(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (note: string) => resolveMessageReport(id, note),
    onSuccess: (detail) => {
      client.setQueryData(reportKeys.message(id), detail);
      void client.invalidateQueries({ queryKey: reportKeys.all });
      void client.invalidateQueries({ queryKey: adminKeys.count(REPORTS_COUNT_PATH) });
    },
  });
}
