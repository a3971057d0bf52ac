import type { Chat } from '@reverie/shared';
import { request } from '../../../lib/api-client';

/** POST /api/chat/{id}/messages/{message_id}/branch: a new chat with the history up to that message. */
export const branchChat = (chatId: string, messageId: string) =>
  request<Chat>(`/api/chat/${encodeURIComponent(chatId)}/messages/${encodeURIComponent(messageId)}/branch`, {
    method: 'POST',
  });
