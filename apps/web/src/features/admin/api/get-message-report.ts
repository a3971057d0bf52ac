import { useQuery } from '@tanstack/react-query';
import type { AdminMessageReportDetail } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { reportKeys } from './get-message-reports';

/** GET /api/admin/reports/messages/{id}: the report with the messages around the reported one. */
export const getMessageReport = (id: number) => request<AdminMessageReportDetail>(`/api/admin/reports/messages/${id}`);

export function useMessageReport(id: number) {
  return useQuery({ queryKey: reportKeys.message(id), queryFn: () => getMessageReport(id) });
}
