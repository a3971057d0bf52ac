import type { SendMessageBody, StreamEvent } from '@reverie/shared';
import { openEventStream } from '../stream-client';

/**
 * POST /api/chat/{id}/messages: sends a message and reads the reply's event stream. Sending
 * the same `client_id` again never makes a second message; it re-attaches to the first.
 */
export const sendMessage = (
  chatId: string,
  body: SendMessageBody,
  onEvent: (event: StreamEvent) => void,
  signal?: AbortSignal,
) => openEventStream(`/api/chat/${encodeURIComponent(chatId)}/messages`, { body, signal }, onEvent);
