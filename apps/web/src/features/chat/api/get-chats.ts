import { useQuery } from '@tanstack/react-query';
import type { Chat } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { chatKeys } from './keys';

/** GET /api/chats/available: the user's chats. */
export const getChats = () => request<Chat[]>('/api/chats/available');

const activity = (chat: Chat) => Date.parse(chat.last_message?.created_at ?? chat.updated_at) || 0;

/** Newest activity first, whatever order the answer had. */
export const sortChats = (chats: Chat[]) => [...chats].sort((a, b) => activity(b) - activity(a));

export function useChats(viewer: string | null) {
  return useQuery({
    queryKey: chatKeys.available(viewer ?? 'guest'),
    queryFn: getChats,
    enabled: Boolean(viewer),
    select: sortChats,
  });
}
