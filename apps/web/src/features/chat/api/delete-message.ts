import type { DeletedMessages } from '@reverie/shared';
import { request } from '../../../lib/api-client';

/** DELETE /api/chat/{id}/messages/{message_id}[?from=1]: one message, or it and everything after it. */
export const deleteMessage = (chatId: string, messageId: string, from: boolean) =>
  request<DeletedMessages>(`/api/chat/${encodeURIComponent(chatId)}/messages/${encodeURIComponent(messageId)}`, {
    method: 'DELETE',
    query: from ? { from: '1' } : {},
  });
