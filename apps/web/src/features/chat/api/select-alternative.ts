import { useMutation } from '@tanstack/react-query';
import type { Message } from '@reverie/shared';
import { request } from '../../../lib/api-client';

/** POST /api/chat/{id}/messages/{message_id}/select: shows another alternative of a reply. */
export const selectAlternative = (chatId: string, messageId: string, index: number) =>
  request<Message>(`/api/chat/${encodeURIComponent(chatId)}/messages/${encodeURIComponent(messageId)}/select`, {
    method: 'POST',
    body: { index },
  });

export function useSelectAlternative(chatId: string) {
  return useMutation({
    mutationFn: ({ messageId, index }: { messageId: string; index: number }) =>
      selectAlternative(chatId, messageId, index),
  });
}
