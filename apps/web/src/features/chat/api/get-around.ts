import { useQuery } from '@tanstack/react-query';
import type { Around } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { chatKeys } from './keys';

/** GET /api/chat/{id}/around/{message_id}: a page of the history around a message (newest first). */
export const getAround = (chatId: string, messageId: string, size = 20) =>
  request<Around>(`/api/chat/${encodeURIComponent(chatId)}/around/${encodeURIComponent(messageId)}`, {
    query: { size: String(size) },
  });

export function useAround(chatId: string, messageId: string | null) {
  return useQuery({
    queryKey: [...chatKeys.all, 'around', chatId, messageId],
    queryFn: () => getAround(chatId, messageId!),
    enabled: messageId !== null,
  });
}
