import { useQuery } from '@tanstack/react-query';
import type { AdminMessageReportList } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { adminKeys } from './get-count';

export const reportKeys = {
  all: [...adminKeys.all, 'reports'] as const,
  messages: (status: string) => [...adminKeys.all, 'reports', 'messages', status] as const,
  message: (id: number) => [...adminKeys.all, 'reports', 'message', id] as const,
  support: (status: string) => [...adminKeys.all, 'reports', 'support', status] as const,
  supportItem: (id: string) => [...adminKeys.all, 'reports', 'support-item', id] as const,
};

/** The badge of the Reports section (open message and support reports). */
export const REPORTS_COUNT_PATH = '/api/admin/reports/count';

/** GET /api/admin/reports/messages. */
export const getMessageReports = (status: 'open' | 'resolved') =>
  request<AdminMessageReportList>('/api/admin/reports/messages', { query: { status } });

export function useMessageReports(status: 'open' | 'resolved') {
  return useQuery({ queryKey: reportKeys.messages(status), queryFn: () => getMessageReports(status) });
}
