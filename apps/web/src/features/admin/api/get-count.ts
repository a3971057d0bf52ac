import { useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';

import { adminKeys } from './keys';

export { adminKeys };

/** A navigation badge: how many items wait in a section (refreshed every minute). */
export function useAdminCount(path: string | undefined) {
  return useQuery({
    queryKey: adminKeys.count(path ?? ''),
    queryFn: () => request<{ count: number }>(path!),
    enabled: Boolean(path),
    refetchInterval: 60_000,
    select: (data) => data.count,
  });
}
