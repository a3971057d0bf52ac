import { useInfiniteQuery } from '@tanstack/react-query';
import type { History } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { chatKeys } from './keys';

export const HISTORY_PAGE_SIZE = 30;

/** GET /api/chat/history/{id}: a page of messages, newest first; `c` continues further back. */
export const getHistory = (chatId: string, cursor: string | null) =>
  request<History>(`/api/chat/history/${encodeURIComponent(chatId)}`, {
    query: { size: HISTORY_PAGE_SIZE, ...(cursor ? { c: cursor } : {}) },
  });

/**
 * The chat's history page by page, going back in time. Pages are loaded once: live changes
 * are kept in the conversation's own state, so the pages are never refetched behind it.
 */
export function useHistory(chatId: string) {
  return useInfiniteQuery({
    queryKey: chatKeys.history(chatId),
    queryFn: ({ pageParam }) => getHistory(chatId, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_param,
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}
