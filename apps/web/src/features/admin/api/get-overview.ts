import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AdminOverview } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { adminKeys } from './keys';

export const getOverview = (days: number) => request<AdminOverview>('/api/admin/overview', { query: { days } });

/** The Overview for the last `days` UTC days (7, 30 or 90). */
export function useAdminOverview(days: number) {
  return useQuery({
    queryKey: adminKeys.overview(days),
    queryFn: () => getOverview(days),
    placeholderData: keepPreviousData,
  });
}
