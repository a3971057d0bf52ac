import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { adminKeys } from './get-count';
import { REPORTS_COUNT_PATH, reportKeys } from './get-message-reports';

/** POST /api/admin/reports/messages/{id}/remove-message: deletes the message and its files. */
export const removeReportedMessage = (id: number, note: string) =>
  request<{ removed: true }>(`/api/admin/reports/messages/${id}/remove-message`, {
    method: 'POST',
    body: { note },
  });

export function useRemoveReportedMessage(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (note: string) => removeReportedMessage(id, note),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: reportKeys.all });
      void client.invalidateQueries({ queryKey: adminKeys.count(REPORTS_COUNT_PATH) });
    },
  });
}
