import { useMutation } from '@tanstack/react-query';
import type { AdminMessageReportDetail } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { useDecisionWritten } from './admin-writes';
import { REPORTS_COUNT_PATH, reportKeys } from './get-message-reports';

/** POST /api/admin/reports/messages/{id}/resolve. */
export const resolveMessageReport = (id: number, note: string) =>
  request<AdminMessageReportDetail>(`/api/admin/reports/messages/${id}/resolve`, {
    method: 'POST',
    body: { note },
  });

export function useResolveMessageReport(id: number) {
  const written = useDecisionWritten<AdminMessageReportDetail>({
    item: reportKeys.message(id),
    queue: reportKeys.all,
    countPath: REPORTS_COUNT_PATH,
  });
  return useMutation({ mutationFn: (note: string) => resolveMessageReport(id, note), onSuccess: written });
}
