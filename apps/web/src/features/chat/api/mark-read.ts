import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ChatRead } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { chatKeys } from './keys';

/** POST /api/chat/{id}/read: the chat is read through its newest message (on every device). */
export const markChatRead = (chatId: string) =>
  request<ChatRead>(`/api/chat/${encodeURIComponent(chatId)}/read`, { method: 'POST' });

/**
 * Marks the open chat read while the user sees it: once its messages are shown (`newestId`:
 * the last one loaded; null while the history loads, or when there is none), when a newer
 * message comes in or a reply has finished (`busy` ends), and when the page comes back into
 * view. Older pages loaded while scrolling up change nothing here: no request per page. The
 * badges follow at once here; the user's other devices hear of it through the server
 * (`GET /api/events`).
 */
export function useMarkRead(chatId: string, viewer: string, busy: boolean, newestId: string | null) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (busy || newestId === null) return;
    const mark = () => {
      if (document.visibilityState === 'hidden') return;
      void markChatRead(chatId).then(
        (read) => {
          queryClient.setQueryData(chatKeys.unread(viewer), { total: read.unread_total });
          void queryClient.invalidateQueries({ queryKey: chatKeys.lists(viewer) });
        },
        () => undefined,
      );
    };
    mark();
    document.addEventListener('visibilitychange', mark);
    return () => document.removeEventListener('visibilitychange', mark);
  }, [chatId, viewer, busy, newestId, queryClient]);
}
