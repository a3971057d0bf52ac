import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Chat } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { chatKeys, type ChatListFilter } from './keys';

/**
 * GET /api/chats/available: the user's chats; `q` searches character names, titles and
 * message texts on the server, `bot_id` keeps one character's chats.
 */
export const getChats = (filter: ChatListFilter = {}) =>
  request<Chat[]>('/api/chats/available', {
    query: {
      ...(filter.q ? { q: filter.q } : {}),
      ...(filter.botId ? { bot_id: filter.botId } : {}),
    },
  });

const activity = (chat: Chat) => Date.parse(chat.last_message?.created_at ?? chat.updated_at) || 0;

/** Newest activity first, whatever order the answer had. */
export const sortChats = (chats: Chat[]) => [...chats].sort((a, b) => activity(b) - activity(a));

export function useChats(viewer: string | null, filter: ChatListFilter = {}, enabled = true) {
  return useQuery({
    queryKey: chatKeys.list(viewer ?? 'guest', filter),
    queryFn: () => getChats(filter),
    enabled: Boolean(viewer) && enabled,
    select: sortChats,
    // While a new search runs, the previous answer stays on screen.
    placeholderData: keepPreviousData,
  });
}
