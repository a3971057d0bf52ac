import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Chat } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { chatKeys } from './keys';

/** POST /api/chat/create: a new chat with the character (greeting and AI disclosure first). */
export const createChat = (botID: string) => request<Chat>('/api/chat/create', { method: 'POST', body: { botID } });

/** Starts a new chat: cached by its id (the page opens it at once); the lists load again. */
export function useCreateChat(viewer: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createChat,
    onSuccess: (chat) => {
      client.setQueryData(chatKeys.detail(viewer, chat.id), chat);
      void client.invalidateQueries({ queryKey: chatKeys.lists(viewer) });
    },
  });
}
