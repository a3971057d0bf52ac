import { useQuery } from '@tanstack/react-query';
import type { AdminTakedownDetail } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { takedownKeys } from './get-takedowns';

/** GET /api/admin/takedown/{id}: a request, each item read against what is stored. */
export const getTakedown = (id: string) => request<AdminTakedownDetail>(`/api/admin/takedown/${id}`);

export function useTakedown(id: string) {
  return useQuery({ queryKey: takedownKeys.detail(id), queryFn: () => getTakedown(id) });
}
