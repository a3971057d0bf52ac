import { createParser } from 'eventsource-parser';
import type { StreamEvent, StreamEventName } from '@reverie/shared';
import { requestRaw } from '../../lib/api-raw';

const EVENT_NAMES: readonly StreamEventName[] = [
  'user_message',
  'system_message',
  'bot_message',
  'delta',
  'image',
  'status',
  'error',
];

const isEventName = (name: string | undefined): name is StreamEventName =>
  Boolean(name && (EVENT_NAMES as readonly string[]).includes(name));

/**
 * Reads a `text/event-stream` body to its end and calls `onEvent` for every known event, in
 * order, whatever way the bytes are cut into chunks (an event, a line or a multi-byte
 * character split across reads). Unknown event names and data that is not JSON are skipped.
 */
export async function readEventStream(
  body: ReadableStream<Uint8Array>,
  onEvent: (event: StreamEvent) => void,
): Promise<void> {
  const parser = createParser({
    onEvent(message) {
      if (!isEventName(message.event)) return;
      let data: unknown;
      try {
        data = JSON.parse(message.data);
      } catch {
        return;
      }
      onEvent({ event: message.event, data } as StreamEvent);
    },
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
    const rest = decoder.decode();
    if (rest) parser.feed(rest);
    // A last event without its blank line still counts.
    parser.feed('\n\n');
  } finally {
    reader.releaseLock();
  }
}

/** A call on one message's event stream (regenerate, re-attach): the chat, the message, where events go. */
export type MessageStreamCall = (
  chatId: string,
  messageId: string,
  onEvent: (event: StreamEvent) => void,
  signal?: AbortSignal,
) => Promise<void>;

export interface StreamRequest {
  method?: 'GET' | 'POST';
  body?: unknown;
  signal?: AbortSignal;
}

/**
 * Opens one of the chat's event streams (send, regenerate, re-attach) and reads it to the
 * end. Errors before the stream opens (409, 429, 404, network) reject with ApiRequestError;
 * a connection lost while reading rejects with the reader's error.
 */
export async function openEventStream(
  path: string,
  { method = 'POST', body, signal }: StreamRequest,
  onEvent: (event: StreamEvent) => void,
): Promise<void> {
  const headers: Record<string, string> = { Accept: 'text/event-stream' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await requestRaw(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  if (!response.body) return;
  await readEventStream(response.body, onEvent);
}
