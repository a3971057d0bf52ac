import { useMatches } from 'react-router';

export type PageKey = 'explore' | 'chat' | 'chats' | 'audio' | 'settings' | 'welcome' | 'other';
export type TabKey = 'explore' | 'message' | 'person' | null;

/** What a route tells the layout about itself. */
export interface RouteHandle {
  pageKey: PageKey;
  /** The navbar tab highlighted on this route. */
  tab: TabKey;
  /** Hide the navbar, tab bar and footer (chat, audio, welcome). */
  immersive?: boolean;
  /** Named middlewares run on every navigation to the route. */
  middleware?: readonly string[];
  /** The page's validity check; false turns it into a 404. */
  validate?: (params: Record<string, string | undefined>) => boolean;
}

/** The deepest matched route's handle. */
export function useRouteHandle(): RouteHandle {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const handle = matches[i]?.handle as RouteHandle | undefined;
    if (handle?.pageKey) return handle;
  }
  return { pageKey: 'other', tab: null };
}
