import { useQueries, useQuery } from '@tanstack/react-query';
import type { Memory } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { memoryKeys } from '../../../lib/query-keys';
import { memoryPath } from './paths';

/** GET /api/memories/{id}: one memory (404 once forgotten). */
export const getMemory = (id: string) => request<Memory>(memoryPath(id));

/** One memory, e.g. the one a reply's mark opened that is not among the page's loaded ones. */
export function useMemory(viewer: string, id: string | null) {
  return useQuery({
    queryKey: memoryKeys.detail(viewer, id ?? ''),
    queryFn: () => getMemory(id!),
    enabled: Boolean(id),
    retry: false,
  });
}

/** Several memories by id (a reply's mark), each read once and kept in the cache. */
export function useMemoriesById(viewer: string, ids: readonly string[], enabled: boolean) {
  return useQueries({
    queries: ids.map((id) => ({
      queryKey: memoryKeys.detail(viewer, id),
      queryFn: () => getMemory(id),
      enabled,
      retry: false,
      staleTime: 60_000,
    })),
  });
}
