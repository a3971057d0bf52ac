import { useQuery } from '@tanstack/react-query';
import type { Chat } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { chatKeys } from './keys';

/** POST /api/chat/get_or_create: the user's latest chat with the character, else a new one. */
export const getOrCreateChat = (slug: string) =>
  request<Chat>('/api/chat/get_or_create', { method: 'POST', body: { slug } });

/** The chat for a character page; `viewer` (the user id) keeps users' chats apart. */
export function useChatForCharacter(slug: string, viewer: string | null) {
  return useQuery({
    queryKey: chatKeys.bySlug(slug, viewer ?? 'guest'),
    queryFn: () => getOrCreateChat(slug),
    enabled: Boolean(viewer),
    staleTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
  });
}
