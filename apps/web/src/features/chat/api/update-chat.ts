import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Chat } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { chatKeys } from './keys';

export interface ChatUpdate {
  persona_id?: string | null;
  model_id?: string | null;
}

/** PATCH /api/chat/{id}: the chat's persona and model. */
export const updateChat = (chatId: string, changes: ChatUpdate) =>
  request<Chat>(`/api/chat/${encodeURIComponent(chatId)}`, { method: 'PATCH', body: changes });

/** Saves the change and puts the answer in every cached copy of that chat. */
export function useUpdateChat(chatId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (changes: ChatUpdate) => updateChat(chatId, changes),
    onSuccess: (chat) => {
      client.setQueriesData<Chat>({ queryKey: [...chatKeys.all, 'by-slug'] }, (cached) =>
        cached?.id === chat.id ? chat : cached,
      );
    },
  });
}
