import { openEventStream, type MessageStreamCall } from '../stream-client';

/**
 * GET /api/chat/{id}/stream/{message_id}: re-attaches to a reply still being written (its
 * current text, then the rest) or answers its final state.
 */
export const attachStream: MessageStreamCall = (chatId, messageId, onEvent, signal) =>
  openEventStream(
    `/api/chat/${encodeURIComponent(chatId)}/stream/${encodeURIComponent(messageId)}`,
    { method: 'GET', signal },
    onEvent,
  );
