import { useQuery } from '@tanstack/react-query';
import type { MemoryHistory } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { memoryKeys } from '../../../lib/query-keys';
import { memoryPath } from './paths';

/** GET /api/memories/{id}/history: every revision of a memory, the current one first. */
export const getMemoryHistory = (id: string) => request<MemoryHistory>(memoryPath(id, '/history'));

export function useMemoryHistory(viewer: string, id: string | null) {
  return useQuery({
    queryKey: memoryKeys.history(viewer, id ?? ''),
    queryFn: () => getMemoryHistory(id!),
    enabled: Boolean(id),
  });
}
