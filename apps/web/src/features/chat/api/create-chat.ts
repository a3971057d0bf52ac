import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Chat } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { chatKeys } from './keys';

/** POST /api/chat/create: a new chat with the character (greeting and AI disclosure first). */
export const createChat = (botID: string) => request<Chat>('/api/chat/create', { method: 'POST', body: { botID } });

/** Starts a new chat; the character page shows it at once (its cached chat is replaced). */
export function useCreateChat(slug: string, viewer: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createChat,
    onSuccess: (chat) => {
      client.setQueryData(chatKeys.bySlug(slug, viewer), chat);
      void client.invalidateQueries({ queryKey: chatKeys.available(viewer) });
    },
  });
}
