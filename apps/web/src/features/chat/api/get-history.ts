import { useInfiniteQuery } from '@tanstack/react-query';
import type { History } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { chatKeys } from './keys';
import { takeEarlyHistory } from './opening';

/** The page a chat opens with: a phone's screen and the rows Virtuoso lays out around it. */
export const HISTORY_PAGE_SIZE = 30;
/**
 * The pages loaded while scrolling (older, or newer after a jump): larger, so that scrolling
 * through a long chat loads (and lays out) a page every ~100 messages rather than every 30.
 */
export const SCROLL_PAGE_SIZE = 100;

/**
 * Where an open chat starts (docs/chat.md "Long chats"): at the newest message, at the first,
 * or at a moment (a jump to a date, or the place the reader left the chat: `focusId` is the
 * message to show first, `focusOffset` how far its top was scrolled above the view, in px).
 */
export type HistoryAnchor =
  { kind: 'latest' } | { kind: 'first' } | { kind: 'date'; at: string; focusId?: string; focusOffset?: number };

/** One page's request: the anchor's own page, older than `c` or newer than `a`. */
export type HistoryPageParam = { anchor: HistoryAnchor } | { c: string } | { a: string };

function pageQuery(param: HistoryPageParam): Record<string, string | number> {
  if ('c' in param) return { c: param.c };
  if ('a' in param) return { a: param.a };
  const { anchor } = param;
  if (anchor.kind === 'first') return { from: 'first' };
  if (anchor.kind === 'date') return { at: anchor.at };
  return {};
}

/** GET /api/chat/history/{id}: a page of messages, newest first. */
export const getHistory = (chatId: string, param: HistoryPageParam, size = HISTORY_PAGE_SIZE) =>
  request<History>(`/api/chat/history/${encodeURIComponent(chatId)}`, {
    query: { size, ...pageQuery(param) },
  });

/**
 * The chat's history page by page from an anchor: older pages (`fetchNextPage`) and newer ones
 * (`fetchPreviousPage`, until the newest message). Pages are loaded once: live changes are kept
 * in the conversation's own state, so the pages are never refetched behind it.
 */
export function useHistory(chatId: string, anchor: HistoryAnchor = { kind: 'latest' }) {
  return useInfiniteQuery({
    queryKey: [...chatKeys.history(chatId), anchor],
    queryFn: ({ pageParam }) =>
      'anchor' in pageParam
        ? // The route's loader may have asked for the opening page already (api/opening.ts).
          (takeEarlyHistory(chatId, pageParam.anchor) ?? getHistory(chatId, pageParam))
        : getHistory(chatId, pageParam, SCROLL_PAGE_SIZE),
    initialPageParam: { anchor } as HistoryPageParam,
    getNextPageParam: (last): HistoryPageParam | null => (last.next_param ? { c: last.next_param } : null),
    getPreviousPageParam: (first): HistoryPageParam | null => (first.prev_param ? { a: first.prev_param } : null),
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}
