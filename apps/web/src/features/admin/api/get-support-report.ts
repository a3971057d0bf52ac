import { useQuery } from '@tanstack/react-query';
import type { AdminSupportReport } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { reportKeys } from './get-message-reports';

/** GET /api/admin/reports/support/{id}. */
export const getSupportReport = (id: string) => request<AdminSupportReport>(`/api/admin/reports/support/${id}`);

export function useSupportReport(id: string) {
  return useQuery({ queryKey: reportKeys.supportItem(id), queryFn: () => getSupportReport(id) });
}
