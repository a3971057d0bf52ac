import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { useDecisionWritten } from './admin-writes';
import { REPORTS_COUNT_PATH, reportKeys } from './get-message-reports';

/** POST /api/admin/reports/messages/{id}/remove-message: deletes the message and its files. */
export const removeReportedMessage = (id: number, note: string) =>
  request<{ removed: true }>(`/api/admin/reports/messages/${id}/remove-message`, {
    method: 'POST',
    body: { note },
  });

export function useRemoveReportedMessage(id: number) {
  const written = useDecisionWritten<{ removed: true }>({ queue: reportKeys.all, countPath: REPORTS_COUNT_PATH });
  return useMutation({ mutationFn: (note: string) => removeReportedMessage(id, note), onSuccess: written });
}
