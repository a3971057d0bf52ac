import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Chat } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { chatKeys } from './keys';

/** POST /api/chat/get_or_create: the user's latest chat with the character, else a new one. */
export const getOrCreateChat = (slug: string) =>
  request<Chat>('/api/chat/get_or_create', { method: 'POST', body: { slug } });

/**
 * `/{slug}` alone: resolves the user's latest chat with the character (the page then moves to
 * its address by id). Never kept: the next visit asks again, as another chat may be newer.
 */
export function useLatestChat(slug: string, viewer: string | null) {
  const client = useQueryClient();
  return useQuery({
    queryKey: chatKeys.latest(viewer ?? 'guest', slug),
    queryFn: async () => {
      const chat = await getOrCreateChat(slug);
      // Its address by id finds it loaded.
      if (viewer) client.setQueryData(chatKeys.detail(viewer, chat.id), chat);
      return chat;
    },
    enabled: Boolean(viewer),
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });
}
