import { useMutation } from '@tanstack/react-query';
import type { AdminSupportAnswerBody, AdminSupportReport } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { useDecisionWritten } from './admin-writes';
import { REPORTS_COUNT_PATH, reportKeys } from './get-message-reports';

/** POST /api/admin/reports/support/{id}/answer: e-mails the answer to the reporter. */
export const answerSupportReport = (id: string, body: AdminSupportAnswerBody) =>
  request<AdminSupportReport>(`/api/admin/reports/support/${id}/answer`, { method: 'POST', body });

export function useAnswerSupportReport(id: string) {
  const written = useDecisionWritten<AdminSupportReport>({
    item: reportKeys.supportItem(id),
    queue: reportKeys.all,
    countPath: REPORTS_COUNT_PATH,
  });
  return useMutation({
    mutationFn: (body: AdminSupportAnswerBody) => answerSupportReport(id, body),
    onSuccess: written,
  });
}
