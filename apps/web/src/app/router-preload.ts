import { routePreloads } from '../lib/preload-queue';

type Loader = () => Promise<unknown>;
const pageLoaders = new Map<string, Loader>();

/** Called by the router for each lazily loaded page. */
export function registerPageLoader(pattern: string, loader: Loader): void {
  pageLoaders.set(pattern, loader);
}

function loaderFor(href: string): Loader | undefined {
  const pathname = href.split(/[?#]/)[0] || '/';
  const exact = pageLoaders.get(pathname);
  if (exact) return exact;
  return /^\/[^/]+$/.test(pathname) ? pageLoaders.get('/:slug') : undefined;
}

/** Loads a page's code ahead of navigation, at most 4 at once (spec §9). */
export function preloadPage(href: string): void {
  const loader = loaderFor(href);
  if (loader) void routePreloads.add(href, loader).catch(() => {});
}

/** A connection on which loading ahead would slow down what the page shows (Save-Data, 2G, 3G). */
export function isSlowConnection(): boolean {
  const connection = (navigator as { connection?: { saveData?: boolean; effectiveType?: string } }).connection;
  return Boolean(connection?.saveData) || /(^|-)[23]g$/.test(connection?.effectiveType ?? '');
}
