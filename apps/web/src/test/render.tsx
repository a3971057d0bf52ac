import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { AlertStack } from '../components/ui/alerts';
import { AppProviders } from '../lib/providers';
import { testQueryClient } from './profile';

/** A JSON answer of the fake API (204: no body). */
export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

/** One request to the fake API, as the tests read it. */
export interface FetchCall {
  method: string;
  path: string;
  /** The query string with its `?` (empty without one). */
  search: string;
  query: URLSearchParams;
  /** The JSON body sent, or null. */
  body: unknown;
}

/** What a test's `globalThis.fetch` was asked. */
export function fetchCall(input: RequestInfo | URL, init?: RequestInit): FetchCall {
  const url = new URL(String(input instanceof Request ? input.url : input), 'http://x');
  const raw = init?.body;
  return {
    method: (init?.method ?? 'GET').toUpperCase(),
    path: url.pathname,
    search: url.search,
    query: url.searchParams,
    body: typeof raw === 'string' ? (JSON.parse(raw) as unknown) : null,
  };
}

/** Renders routes under the app's providers at `path`; answers the router. */
export function renderRoutes(routes: RouteObject[], path: string, extra?: ReactNode) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <AppProviders client={testQueryClient()}>
      <RouterProvider router={router} />
      <AlertStack />
      {extra}
    </AppProviders>,
  );
  return router;
}
