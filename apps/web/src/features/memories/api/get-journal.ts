import { useInfiniteQuery } from '@tanstack/react-query';
import type { JournalList } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { memoryKeys } from '../../../lib/query-keys';
import { characterPath } from './paths';

/** GET /api/characters/{botId}/journal: whether the journal is on, and its entries, newest day first. */
export const getJournal = (botId: string, cursor: string | null) =>
  request<JournalList>(characterPath(botId, 'journal'), { query: cursor ? { c: cursor } : {} });

export function useJournal(viewer: string, botId: string, enabled = true) {
  return useInfiniteQuery({
    queryKey: memoryKeys.journal(viewer, botId),
    queryFn: ({ pageParam }) => getJournal(botId, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_param,
    enabled,
  });
}
