import type { StreamEvent } from '@reverie/shared';
import { openEventStream } from '../stream-client';

/**
 * GET /api/chat/{id}/stream/{message_id}: re-attaches to a reply still being written (its
 * current text, then the rest) or answers its final state.
 */
export const attachStream = (
  chatId: string,
  messageId: string,
  onEvent: (event: StreamEvent) => void,
  signal?: AbortSignal,
) =>
  openEventStream(
    `/api/chat/${encodeURIComponent(chatId)}/stream/${encodeURIComponent(messageId)}`,
    { method: 'GET', signal },
    onEvent,
  );
