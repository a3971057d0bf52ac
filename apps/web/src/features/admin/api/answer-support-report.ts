import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminSupportAnswerBody, AdminSupportReport } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { adminKeys } from './get-count';
import { REPORTS_COUNT_PATH, reportKeys } from './get-message-reports';

/** POST /api/admin/reports/support/{id}/answer: e-mails the answer to the reporter. */
export const answerSupportReport = (id: string, body: AdminSupportAnswerBody) =>
  request<AdminSupportReport>(`/api/admin/reports/support/${id}/answer`, { method: 'POST', body });

export function useAnswerSupportReport(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AdminSupportAnswerBody) => answerSupportReport(id, body),
    onSuccess: (report) => {
      client.setQueryData(reportKeys.supportItem(id), report);
      void client.invalidateQueries({ queryKey: reportKeys.all });
      void client.invalidateQueries({ queryKey: adminKeys.count(REPORTS_COUNT_PATH) });
    },
  });
}
