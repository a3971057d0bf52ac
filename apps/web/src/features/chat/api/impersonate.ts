import type { ImpersonateEvent, StreamEvent } from '@reverie/shared';
import { openEventStream } from '../stream-client';

/**
 * POST /api/chat/{id}/impersonate: the user's next line, streamed (`delta`, then `done` or
 * `error`). Nothing is sent: the caller puts the text into the input box.
 */
export const impersonate = (chatId: string, onEvent: (event: ImpersonateEvent) => void, signal?: AbortSignal) =>
  openEventStream(
    `/api/chat/${encodeURIComponent(chatId)}/impersonate`,
    { signal },
    onEvent as unknown as (event: StreamEvent) => void,
  );
