import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChatLorebooks } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { lorebookKeys } from '../../../lib/query-keys';

const path = (chatId: string) => `/api/chat/${encodeURIComponent(chatId)}/lorebooks`;

/** GET /api/chat/{id}/lorebooks: the user's lorebooks and which are attached to the chat. */
export const getChatLorebooks = (chatId: string) => request<ChatLorebooks>(path(chatId));

export function useChatLorebooks(chatId: string, enabled: boolean) {
  return useQuery({ queryKey: lorebookKeys.chat(chatId), queryFn: () => getChatLorebooks(chatId), enabled });
}

/** PUT /api/chat/{id}/lorebooks: attach exactly these books to the chat. */
export function useSetChatLorebooks(chatId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => request<ChatLorebooks>(path(chatId), { method: 'PUT', body: { lorebook_ids: ids } }),
    onSuccess: (saved) => client.setQueryData(lorebookKeys.chat(chatId), saved),
  });
}
