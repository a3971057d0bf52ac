import { useQuery } from '@tanstack/react-query';
import type { AdminTakedownList, AdminTakedownListQuery } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { adminKeys } from './get-count';

export const takedownKeys = {
  all: [...adminKeys.all, 'takedown'] as const,
  list: (query: AdminTakedownListQuery) => [...adminKeys.all, 'takedown', 'list', query] as const,
  detail: (id: string) => [...adminKeys.all, 'takedown', 'detail', id] as const,
};

/** The badge of the Takedown section (requests still open). */
export const TAKEDOWN_COUNT_PATH = '/api/admin/takedown/count';

/** GET /api/admin/takedown: requests with their 48-hour clock. */
export const getTakedowns = (query: AdminTakedownListQuery) =>
  request<AdminTakedownList>('/api/admin/takedown', { query });

export function useTakedowns(query: AdminTakedownListQuery) {
  return useQuery({ queryKey: takedownKeys.list(query), queryFn: () => getTakedowns(query), refetchInterval: 60_000 });
}
