import { createBrowserRouter, data, redirect, type RouteObject } from 'react-router';
import { isValidBotSlug, BLOG_ID_PATTERN } from '@reverie/shared';
import { withChunkReload } from '../lib/chunk-reload';
import { beginNavigation } from '../lib/early-answers';
import { isAuthorized } from '../lib/session';
import { registerPageLoader } from './router-preload';
import { runMiddlewares } from './middleware';
import type { RouteHandle } from './route-meta';
import { AppLayout } from './layout/app-layout';
import { ErrorPage } from './routes/error-page';

/** What renders while a loader decides (nothing): a route that only redirects, and the first load. */
const RedirectOnly = () => null;

/** Middlewares every page runs before its own. */
export const GLOBAL_MIDDLEWARE = ['validate-with-local-storage', 'generate', 'ready'] as const;

type PageModule = { Component: React.ComponentType };

interface PageDefinition {
  path?: string;
  index?: boolean;
  load: () => Promise<PageModule>;
  handle: RouteHandle;
  children?: RouteObject[];
  /**
   * Requests the page will make, started by its loader while its code loads (the chat's:
   * `features/chat/api/opening.ts`): in parallel with the code rather than after it.
   */
  early?: (url: URL, params: Record<string, string | undefined>, first: boolean) => void;
}

/** No loader has run yet: the app's first navigation (its address is already the page's). */
let firstNavigation = true;

function page({ path, index, load, handle, children, early }: PageDefinition): RouteObject {
  const safeLoad = withChunkReload(load);
  registerPageLoader(!path || path === '/' ? '/' : `/${path}`, safeLoad);
  const loader = async ({ request, params }: { request: Request; params: Record<string, string | undefined> }) => {
    // What an earlier navigation started and nobody took is dropped (lib/early-answers.ts).
    beginNavigation();
    early?.(new URL(request.url), params, firstNavigation);
    firstNavigation = false;
    await runMiddlewares([...GLOBAL_MIDDLEWARE, ...(handle.middleware ?? [])], { request, params });
    if (handle.validate && !handle.validate(params)) {
      throw data({ reason: 'invalid' }, { status: 404 });
    }
    return null;
  };
  const base = { handle, loader, lazy: async () => ({ Component: (await safeLoad()).Component }) };
  return index ? { ...base, index: true } : { ...base, path, children };
}

/** Step pages of the landing page (`/password`, `/verify`) render over Explore. */
const landingSteps: RouteObject[] = [
  page({
    path: 'password',
    load: () => import('./routes/password-step'),
    handle: { pageKey: 'explore', tab: 'explore' },
  }),
  page({
    path: 'verify',
    load: () => import('./routes/verify-step'),
    handle: { pageKey: 'explore', tab: 'explore', middleware: ['auth'] },
  }),
];

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <AppLayout />,
    errorElement: <ErrorPage />,
    // While the first page's loaders run (a redirect like /undress, the middlewares) nothing
    // renders, as before; naming it keeps the router from warning in the console.
    HydrateFallback: RedirectOnly,
    children: [
      {
        errorElement: <ErrorPage />,
        children: [
          page({
            path: '/',
            load: () => import('./routes/explore'),
            handle: { pageKey: 'explore', tab: 'explore' },
            children: landingSteps,
          }),
          page({
            path: 'chat',
            load: () => import('./routes/chats'),
            handle: { pageKey: 'chats', tab: 'message', middleware: ['auth'] },
          }),
          page({
            path: 'audio',
            load: () => import('./routes/audio'),
            handle: { pageKey: 'audio', tab: 'message', immersive: true },
          }),
          page({
            path: 'settings',
            load: () => import('./routes/settings'),
            handle: { pageKey: 'settings', tab: 'person', middleware: ['auth'] },
          }),
          page({
            path: 'settings/characters',
            load: () => import('./routes/my-characters'),
            handle: { pageKey: 'settings', tab: 'person', middleware: ['auth'] },
          }),
          page({
            path: 'lorebooks',
            load: () => import('./routes/lorebooks'),
            handle: { pageKey: 'settings', tab: 'person', middleware: ['auth'] },
          }),
          page({
            path: 'lorebooks/character/:slug',
            load: () => import('./routes/lorebook'),
            handle: {
              pageKey: 'settings',
              tab: 'person',
              middleware: ['auth'],
              validate: ({ slug }) => Boolean(slug && isValidBotSlug(slug)),
            },
          }),
          page({
            path: 'lorebooks/:id',
            load: () => import('./routes/lorebook'),
            handle: {
              pageKey: 'settings',
              tab: 'person',
              middleware: ['auth'],
              validate: ({ id }) => Boolean(id && /^[0-9a-f-]{36}$/i.test(id)),
            },
          }),
          page({
            path: 'u/:id',
            load: () => import('./routes/creator'),
            handle: {
              pageKey: 'other',
              tab: 'explore',
              validate: ({ id }) => Boolean(id && /^[0-9a-f-]{36}$/i.test(id)),
            },
          }),
          page({
            path: 'transform',
            load: () => import('./routes/transform'),
            handle: { pageKey: 'other', tab: 'explore' },
          }),
          {
            // The specification's address of the tool: the loader redirects before anything
            // renders; the empty Component only keeps the router from warning about a leaf
            // route without an element.
            path: 'undress',
            loader: ({ request }) => redirect(`/transform${new URL(request.url).search}`),
            Component: RedirectOnly,
          },
          page({
            path: 'welcome',
            load: () => import('./routes/welcome'),
            handle: { pageKey: 'welcome', tab: null, immersive: true },
          }),
          page({
            path: 'blog',
            load: () => import('./routes/blog-list'),
            handle: { pageKey: 'other', tab: 'explore' },
          }),
          page({
            path: 'blog/:id',
            load: () => import('./routes/blog-post'),
            handle: {
              pageKey: 'other',
              tab: 'explore',
              validate: ({ id }) => Boolean(id && id.length <= 120 && BLOG_ID_PATTERN.test(id)),
            },
          }),
          page({
            path: 'email/unsubscribe',
            load: () => import('./routes/unsubscribe'),
            handle: { pageKey: 'other', tab: null },
          }),
          page({
            path: 'takedown',
            load: () => import('./routes/takedown'),
            handle: { pageKey: 'other', tab: null },
          }),
          page({
            path: 'admin/*',
            load: () => import('./routes/admin'),
            handle: { pageKey: 'other', tab: null, middleware: ['auth'] },
          }),
          page({
            path: 'checkout/sandbox/:id',
            load: () => import('./routes/sandbox-checkout'),
            handle: {
              pageKey: 'other',
              tab: null,
              middleware: ['auth'],
              validate: ({ id }) => Boolean(id && /^[0-9a-f-]{36}$/i.test(id)),
            },
          }),
          page({
            path: 'memories/:slug',
            load: () => import('./routes/character-memories'),
            handle: {
              pageKey: 'other',
              tab: 'message',
              immersive: true,
              middleware: ['auth'],
              validate: ({ slug }) => Boolean(slug && isValidBotSlug(slug)),
            },
          }),
          page({
            path: 'scene/join/:code',
            load: () => import('./routes/scene-join'),
            handle: {
              pageKey: 'other',
              tab: 'message',
              immersive: true,
              middleware: ['auth'],
              validate: ({ code }) => Boolean(code && code.length >= 10 && code.length <= 100),
            },
          }),
          page({
            path: ':slug',
            load: () => import('./routes/character-chat'),
            // A member's chat by id: the chat and its first history page are asked for at once.
            // Not when the chat is already on screen (a modal's flag in the address reruns the loader).
            early: (url, { slug }, first) => {
              const chatId = url.searchParams.get('chat');
              const onScreen =
                !first &&
                window.location.pathname === url.pathname &&
                new URLSearchParams(window.location.search).get('chat') === chatId;
              // (Its module is fetched beside the page's code: kept out of the landing bundle.)
              if (chatId && slug && isValidBotSlug(slug) && isAuthorized() && !onScreen)
                void import('../features/chat/api/opening').then((m) => m.startChatOpening(chatId, slug));
            },
            handle: {
              pageKey: 'chat',
              tab: 'message',
              immersive: true,
              validate: ({ slug }) => Boolean(slug && isValidBotSlug(slug)),
            },
          }),
          {
            path: '*',
            loader: () => {
              throw data({ reason: 'no_match' }, { status: 404 });
            },
          },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
