import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ChatSearch } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { chatKeys } from './keys';

/** GET /api/chat/{id}/search?q=: full-text search in the chat, with the found words. */
export const searchChat = (chatId: string, q: string) =>
  request<ChatSearch>(`/api/chat/${encodeURIComponent(chatId)}/search`, { query: { q } });

export function useChatSearch(chatId: string, q: string) {
  const query = q.trim();
  return useQuery({
    queryKey: [...chatKeys.all, 'search', chatId, query],
    queryFn: () => searchChat(chatId, query),
    enabled: query.length > 0,
    placeholderData: keepPreviousData,
  });
}
