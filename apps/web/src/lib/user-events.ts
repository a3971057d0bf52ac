import { useEffect, useRef } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { UserEvent } from '@reverie/shared';
import { requestRaw } from './api-raw';
import { chatKeys, profileKeys } from './query-keys';

/**
 * The user's events from every replica (`GET /api/events`, issue 31): a chat read on another
 * device clears its badges and notifications here, a character's message raises them. Loaded
 * after the first screen (app/layout/user-events.tsx).
 */
/** What an event of the user's stream changes: the badge's total, the lists, the chat's notifications. */
export function applyUserEvent(queryClient: QueryClient, viewer: string, event: UserEvent): void {
  if (event.type === 'data_export') {
    // The archive is ready (or failed): Settings shows its state and link.
    void queryClient.invalidateQueries({ queryKey: profileKeys.dataExport(viewer) });
    return;
  }
  queryClient.setQueryData(chatKeys.unread(viewer), { total: event.unread_total });
  void queryClient.invalidateQueries({ queryKey: chatKeys.lists(viewer) });
  if (event.type === 'read' && 'serviceWorker' in navigator) {
    // Read on another device: its notifications here go too.
    void navigator.serviceWorker.getRegistration().then(async (registration) => {
      for (const notification of (await registration?.getNotifications({ tag: `chat-${event.chat_id}` })) ?? []) {
        notification.close();
      }
    });
  }
}

/** Parses `event: …\ndata: {…}` blocks of a server-sent events text. */
export function parseUserEvents(text: string): UserEvent[] {
  const events: UserEvent[] = [];
  for (const block of text.split('\n\n')) {
    const data = /^data: (.*)$/m.exec(block)?.[1];
    if (!data) continue;
    try {
      events.push(JSON.parse(data) as UserEvent);
    } catch {
      // A broken line: skipped.
    }
  }
  return events;
}

/**
 * Follows the user's events (`GET /api/events`) while signed in: a chat read on any device
 * clears its badge here, a character's message raises it. Reconnects after a pause.
 */
export function useUserEvents(viewer: string | null, onEvent?: (event: UserEvent) => void): void {
  const queryClient = useQueryClient();
  // The latest listener, read at each event (a new one is no reason to reconnect).
  const listener = useRef(onEvent);
  useEffect(() => {
    listener.current = onEvent;
  }, [onEvent]);
  useEffect(() => {
    if (!viewer) return;
    const controller = new AbortController();
    let delay = 1000;
    const run = async () => {
      while (!controller.signal.aborted) {
        try {
          const response = await requestRaw('/api/events', { signal: controller.signal });
          delay = 1000;
          const reader = response.body!.getReader();
          const decoder = new TextDecoder();
          let buffer = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buffer += decoder.decode(value, { stream: true });
            const end = buffer.lastIndexOf('\n\n');
            if (end < 0) continue;
            for (const event of parseUserEvents(buffer.slice(0, end))) {
              applyUserEvent(queryClient, viewer, event);
              listener.current?.(event);
            }
            buffer = buffer.slice(end + 2);
          }
        } catch {
          if (controller.signal.aborted) return;
        }
        await new Promise((resolve) => setTimeout(resolve, delay));
        delay = Math.min(delay * 2, 60_000);
      }
    };
    void run();
    return () => controller.abort();
  }, [queryClient, viewer]);
}
