import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { request } from './api-client';
import { chatKeys } from './query-keys';

/**
 * Unread badges (issue 31, docs/companion.md "Push and the app"): the Chats tab's total, the
 * app icon's badge, and the user's events from every replica that keep them true. Apart from
 * `push.ts` (notifications), which only the settings and the chat load.
 */
export const getUnreadTotal = () => request<{ total: number }>('/api/chats/unread');

/** The user's unread character messages over all chats; the app icon's badge follows it. */
export function useUnreadTotal(viewer: string | null): number {
  const { data } = useQuery({
    queryKey: chatKeys.unread(viewer ?? 'guest'),
    queryFn: getUnreadTotal,
    enabled: Boolean(viewer),
  });
  const total = viewer ? (data?.total ?? 0) : 0;
  useEffect(() => {
    setAppBadge(total);
  }, [total]);
  return total;
}

/** The Badging API where the browser has it (installed apps on Chromium, iOS 16.4+). */
export function setAppBadge(count: number): void {
  const nav = navigator as Navigator & {
    setAppBadge?: (n?: number) => Promise<void>;
    clearAppBadge?: () => Promise<void>;
  };
  if (count > 0) void nav.setAppBadge?.(count).catch(() => undefined);
  else void nav.clearAppBadge?.().catch(() => undefined);
}
