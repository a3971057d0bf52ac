import { useEffect } from 'react';
import { useTranslation } from '../lib/i18n';
import { useLocation, useMatches } from 'react-router';
import { matchWebRoute, pageTitle } from '@reverie/shared';
import { currentEdition } from '../lib/edition';

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

/** Pages that name themselves (a character, a blog post, a character's memories) with `useNamedPageTitle`. */
const NAMED_PAGES = new Set(['/:slug', '/blog/:id', '/memories/:slug']);

/**
 * Keeps the browser tab's title on the page and in the interface language: the same title
 * the server wrote into index.html (`pageTitle` from shared), again after every navigation
 * and language switch.
 */
export function useDocumentTitle(): void {
  const { t, i18n } = useTranslation();
  const { pathname } = useLocation();
  const language = i18n.resolvedLanguage;
  useEffect(() => {
    const pattern = matchWebRoute(pathname)?.pattern ?? null;
    if (pattern && NAMED_PAGES.has(pattern)) return;
    document.title = pageTitle(pattern, (key, vars) => t(key, vars), currentEdition());
  }, [pathname, t, language]);
}

/** A page named after what it shows: "Luna — Reverie". */
export function useNamedPageTitle(name: string | null | undefined): void {
  useEffect(() => {
    if (name) document.title = `${name} — ${currentEdition().name}`;
  }, [name]);
}
