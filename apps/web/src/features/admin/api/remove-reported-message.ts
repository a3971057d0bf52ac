import { useDecision } from './admin-writes';
import { REPORTS_COUNT_PATH, reportKeys } from './get-message-reports';

/** POST /api/admin/reports/messages/{id}/remove-message: deletes the message and its files. */
export const useRemoveReportedMessage = (id: number) =>
  useDecision<{ removed: true }, string>(
    `/api/admin/reports/messages/${id}/remove-message`,
    { queue: reportKeys.all, countPath: REPORTS_COUNT_PATH },
    (note) => ({ note }),
  );
