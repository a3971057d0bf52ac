import { createParser } from 'eventsource-parser';
import type { SceneEvent, SceneEventType } from '@reverie/shared';
import { requestRaw } from '../../lib/api-raw';

const SCENE_EVENT_TYPES: readonly SceneEventType[] = ['message', 'typing', 'presence', 'scene', 'removed'];

/** Parses one server-sent event of a scene's stream; null for anything unknown or not JSON. */
export function parseSceneEvent(name: string | undefined, data: string): SceneEvent | null {
  if (!name || !(SCENE_EVENT_TYPES as readonly string[]).includes(name)) return null;
  try {
    const parsed = JSON.parse(data) as Record<string, unknown>;
    return { ...parsed, type: name } as SceneEvent;
  } catch {
    return null;
  }
}

/**
 * GET /api/chat/{id}/scene/events (docs/groups.md "Scene events"): reads the scene's stream
 * until it ends, the signal aborts it or the connection drops (then it rejects).
 */
export async function readSceneEvents(
  chatId: string,
  onEvent: (event: SceneEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  const response = await requestRaw(`/api/chat/${encodeURIComponent(chatId)}/scene/events`, {
    headers: { Accept: 'text/event-stream' },
    signal,
  });
  if (!response.body) return;
  const parser = createParser({
    onEvent(message) {
      const event = parseSceneEvent(message.event, message.data);
      if (event) onEvent(event);
    },
  });
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } finally {
    reader.releaseLock();
  }
}
