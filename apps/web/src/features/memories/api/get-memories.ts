import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { MemoryList } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { memoryKeys } from '../../../lib/query-keys';
import { characterPath } from './paths';

/** As many as the page shows at once; "Show more" reads the next page. */
export const MEMORY_PAGE = 200;

/**
 * GET /api/characters/{botId}/memories: the user's memories of the character, pinned first then
 * newest; with `q`, the best matches (one page).
 */
export const getMemories = (botId: string, q: string, cursor: string | null) =>
  request<MemoryList>(characterPath(botId, 'memories'), {
    query: { size: MEMORY_PAGE, ...(q ? { q } : {}), ...(cursor ? { c: cursor } : {}) },
  });

export function useMemories(viewer: string, botId: string, q: string) {
  return useInfiniteQuery({
    queryKey: memoryKeys.list(viewer, botId, q),
    queryFn: ({ pageParam }) => getMemories(botId, q, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_param,
    // While a new search runs, the previous answer stays on screen.
    placeholderData: keepPreviousData,
  });
}
