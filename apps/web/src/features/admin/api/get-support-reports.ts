import { useQuery } from '@tanstack/react-query';
import type { AdminSupportReportList } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { reportKeys } from './get-message-reports';

/** GET /api/admin/reports/support. */
export const getSupportReports = (status: 'open' | 'closed') =>
  request<AdminSupportReportList>('/api/admin/reports/support', { query: { status } });

export function useSupportReports(status: 'open' | 'closed') {
  return useQuery({ queryKey: reportKeys.support(status), queryFn: () => getSupportReports(status) });
}
