import type { AdminMessageReportDetail } from '@reverie/shared';
import { useDecision } from './admin-writes';
import { REPORTS_COUNT_PATH, reportKeys } from './get-message-reports';

/** POST /api/admin/reports/messages/{id}/resolve with the moderator's note. */
export const useResolveMessageReport = (id: number) =>
  useDecision<AdminMessageReportDetail, string>(
    `/api/admin/reports/messages/${id}/resolve`,
    { item: reportKeys.message(id), queue: reportKeys.all, countPath: REPORTS_COUNT_PATH },
    (note) => ({ note }),
  );
