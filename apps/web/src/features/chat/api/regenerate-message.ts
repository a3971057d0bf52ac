import type { StreamEvent } from '@reverie/shared';
import { openEventStream } from '../stream-client';

/**
 * POST /api/chat/{id}/messages/{message_id}/regenerate: streams a new alternative of a bot
 * reply (also how a failed reply is retried).
 */
export const regenerateMessage = (
  chatId: string,
  messageId: string,
  onEvent: (event: StreamEvent) => void,
  signal?: AbortSignal,
) =>
  openEventStream(
    `/api/chat/${encodeURIComponent(chatId)}/messages/${encodeURIComponent(messageId)}/regenerate`,
    { signal },
    onEvent,
  );
