import { openEventStream, type MessageStreamCall } from '../stream-client';

/**
 * POST /api/chat/{id}/messages/{message_id}/regenerate: streams a new alternative of a bot
 * reply (also how a failed reply is retried).
 */
export const regenerateMessage: MessageStreamCall = (chatId, messageId, onEvent, signal) =>
  openEventStream(
    `/api/chat/${encodeURIComponent(chatId)}/messages/${encodeURIComponent(messageId)}/regenerate`,
    { signal },
    onEvent,
  );
