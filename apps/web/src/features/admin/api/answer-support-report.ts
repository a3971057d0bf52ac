import type { AdminSupportAnswerBody, AdminSupportReport } from '@reverie/shared';
import { useDecision } from './admin-writes';
import { REPORTS_COUNT_PATH, reportKeys } from './get-message-reports';

/** POST /api/admin/reports/support/{id}/answer: e-mails the answer to the reporter. */
export const useAnswerSupportReport = (id: string) =>
  useDecision<AdminSupportReport, AdminSupportAnswerBody>(`/api/admin/reports/support/${id}/answer`, {
    item: reportKeys.supportItem(id),
    queue: reportKeys.all,
    countPath: REPORTS_COUNT_PATH,
  });
