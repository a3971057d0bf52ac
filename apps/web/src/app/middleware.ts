import { redirect } from 'react-router';
import { STORAGE_KEYS, toLocale } from '@reverie/shared';
import { clearSession, isAuthorized, wasAuthorizedOnce } from '../lib/session';
import { AnalyticsClient } from '../lib/analytics';
import { initI18n } from '../lib/i18n';
import { storage } from '../lib/storage';

export interface MiddlewareContext {
  request: Request;
  params: Record<string, string | undefined>;
}

export type RouteMiddleware = (context: MiddlewareContext) => void | Promise<void>;

const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;

/**
 * Named route middlewares (spec §6). They run on every navigation to a route that names
 * them; a middleware that refuses throws a redirect.
 */
export const ROUTE_MIDDLEWARES: Record<string, RouteMiddleware> = {
  /**
   * Guests are sent to the log-in modal (sign-up on a device where nobody ever logged in),
   * then back to where they wanted to go.
   */
  auth: ({ request }) => {
    if (isAuthorized()) return;
    const url = new URL(request.url);
    const next = url.pathname + url.search;
    throw redirect(`/?${wasAuthorizedOnce() ? 'login' : 'signup'}=1&next=${encodeURIComponent(next)}`);
  },
  /** The interface texts of the chosen language are loaded before the page shows. */
  ready: async () => {
    await initI18n();
  },
  /** Drops stored values that are malformed (hand-edited or from an older version). */
  'validate-with-local-storage': () => {
    const lang = storage.get(STORAGE_KEYS.language);
    if (lang !== null && !toLocale(lang)) storage.remove(STORAGE_KEYS.language);
    const tokens = [STORAGE_KEYS.accessToken, STORAGE_KEYS.refreshToken].map((key) => storage.get(key));
    if (tokens.some((token) => token !== null && !JWT_SHAPE.test(token))) clearSession();
  },
  /** Generates the identifiers a visit needs (the analytics device id) before any page. */
  generate: () => {
    AnalyticsClient.ensureDeviceId();
  },
};

/** Runs the named middlewares in order; an unknown name is a programming error. */
export async function runMiddlewares(names: readonly string[], context: MiddlewareContext): Promise<void> {
  for (const name of names) {
    const middleware = ROUTE_MIDDLEWARES[name];
    if (!middleware) throw new Error(`Unknown route middleware: ${name}`);
    await middleware(context);
  }
}
