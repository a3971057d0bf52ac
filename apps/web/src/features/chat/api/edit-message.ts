import type { Message } from '@reverie/shared';
import { request } from '../../../lib/api-client';

/**
 * PATCH /api/chat/{id}/messages/{message_id}: the user's own message takes the text; a
 * character's reply is rewritten as a new alternative (the original stays as a swipe).
 */
export const editMessage = (chatId: string, messageId: string, text: string) =>
  request<Message>(`/api/chat/${encodeURIComponent(chatId)}/messages/${encodeURIComponent(messageId)}`, {
    method: 'PATCH',
    body: { text },
  });
