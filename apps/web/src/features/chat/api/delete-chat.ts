import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { dropChatDraft } from '../drafts';
import { chatKeys } from './keys';

/** DELETE /api/chat/{id}: the chat, its messages, pictures and voice files. */
export const deleteChat = (chatId: string) =>
  request<void>(`/api/chat/${encodeURIComponent(chatId)}`, { method: 'DELETE' });

/** Deletes a chat: its queries and its unsent draft are dropped and the lists load again. */
export function useDeleteChat(viewer: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteChat,
    onSuccess: (_nothing, chatId) => {
      dropChatDraft(chatId);
      void client.invalidateQueries({ queryKey: chatKeys.lists(viewer) });
      // Dropped once the page has left the chat (a query removed under a mounted page would
      // be asked for again, and answer 404).
      setTimeout(() => {
        client.removeQueries({ queryKey: chatKeys.detail(viewer, chatId) });
        client.removeQueries({ queryKey: chatKeys.history(chatId) });
        client.removeQueries({ queryKey: chatKeys.memory(chatId) });
      }, 0);
    },
  });
}
