import { useQuery } from '@tanstack/react-query';
import type { ChatTree } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { chatKeys } from './keys';

/** GET /api/chat/{id}/branches: the chat's tree (its root and every branch). */
export const getBranches = (chatId: string) => request<ChatTree>(`/api/chat/${encodeURIComponent(chatId)}/branches`);

/** The tree, read when the switcher opens (fresh each time: counts change as the chats go on). */
export function useBranches(chatId: string, enabled: boolean) {
  return useQuery({
    queryKey: [...chatKeys.all, 'branches', chatId],
    queryFn: () => getBranches(chatId),
    enabled,
    staleTime: 0,
  });
}
