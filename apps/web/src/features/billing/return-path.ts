import { isSafeReturnPath } from '@reverie/shared';

/** Query parameters that belong to a modal or to a checkout's outcome, not to the page. */
const TRANSIENT_PARAMS = ['login', 'signup', 'premium', 'pw', 'create', 'from', 'next', 'purchase', 'plan'];

/**
 * Where a checkout should bring the buyer back: the page they are on (e.g. the chat with the
 * blurred picture), without the open modal. Always a same-origin relative path.
 */
export function currentReturnPath(location: Pick<Location, 'pathname' | 'search'> = window.location): string {
  const params = new URLSearchParams(location.search);
  TRANSIENT_PARAMS.forEach((key) => params.delete(key));
  const query = params.toString();
  const path = `${location.pathname}${query ? `?${query}` : ''}`;
  return isSafeReturnPath(path) ? path : '/';
}

/** A `return` parameter as a path of this site, else the home page (never an open redirect). */
export function safeReturnPath(value: string | null): string {
  return value && isSafeReturnPath(value) ? value : '/';
}

/**
 * The page to land on after a checkout, with its outcome for `PurchaseReturn`. Safe by
 * construction, whatever the check above accepts: the answer is built from a URL of this
 * origin and its path never starts with `//` (which a browser would read as another host).
 */
export function purchaseReturnUrl(returnPath: string, outcome: 'success' | 'failed', plan: string): string {
  const origin = window.location.origin;
  let url = new URL(safeReturnPath(returnPath), origin);
  if (url.origin !== origin || url.pathname.startsWith('//')) url = new URL('/', origin);
  url.searchParams.set('purchase', outcome);
  url.searchParams.set('plan', plan);
  return `${url.pathname}${url.search}`;
}
