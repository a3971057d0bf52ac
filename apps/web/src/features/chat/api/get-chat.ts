import { useQuery } from '@tanstack/react-query';
import type { Chat } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { chatKeys } from './keys';
import { takeEarlyChat } from './opening';

/** GET /api/chat/{id}: one of the user's chats (another user's or a deleted one is a 404). */
export const getChat = (chatId: string) => request<Chat>(`/api/chat/${encodeURIComponent(chatId)}`);

/** The chat a page addresses by id (`/{slug}?chat=<id>`). */
export function useChat(chatId: string, viewer: string) {
  return useQuery({
    queryKey: chatKeys.detail(viewer, chatId),
    // The route's loader may have asked already (api/opening.ts).
    queryFn: () => takeEarlyChat(chatId) ?? getChat(chatId),
    retry: false,
    refetchOnWindowFocus: false,
  });
}
