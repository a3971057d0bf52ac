import { createBrowserRouter, data, redirect, type RouteObject } from 'react-router';
import { isValidBotSlug, BLOG_ID_PATTERN } from '@reverie/shared';
import { withChunkReload } from '../lib/chunk-reload';
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
}

function page({ path, index, load, handle, children }: PageDefinition): RouteObject {
  const safeLoad = withChunkReload(load);
  registerPageLoader(!path || path === '/' ? '/' : `/${path}`, safeLoad);
  const loader = async ({ request, params }: { request: Request; params: Record<string, string | undefined> }) => {
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
            path: ':slug',
            load: () => import('./routes/character-chat'),
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
