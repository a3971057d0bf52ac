import { isSafeReturnPath } from '@reverie/shared';

/**
 * Where to bring a visitor back to: after a checkout (`return_path`) and after logging in or
 * signing up (`next=`). Every such path is checked here, with the contract's
 * `isSafeReturnPath`: relative, same origin, no scheme or host (`//evil.example`,
 * `https://…`), no backslashes, controls, dot segments or encoded slashes — never an open
 * redirect.
 */

/** Query parameters that belong to a modal or to a checkout's outcome, not to the page. */
const TRANSIENT_PARAMS = ['login', 'signup', 'premium', 'pw', 'create', 'from', 'next', 'purchase', 'plan'];

/**
 * The page the visitor is on (e.g. the chat with the blurred picture), without an open modal
 * or a checkout's outcome. Always a same-origin relative path ("/" when it cannot be one).
 */
export function currentReturnPath(location: Pick<Location, 'pathname' | 'search'> = window.location): string {
  const params = new URLSearchParams(location.search);
  TRANSIENT_PARAMS.forEach((key) => params.delete(key));
  const query = params.toString();
  const path = `${location.pathname}${query ? `?${query}` : ''}`;
  return isSafeReturnPath(path) ? path : '/';
}

/** A path of this site, or null: what a `next=` parameter may send the visitor to. */
export function safeNextPath(value: string | null | undefined): string | null {
  return value && isSafeReturnPath(value) ? value : null;
}

/** A `return` parameter as a path of this site, else the home page. */
export function safeReturnPath(value: string | null | undefined): string {
  return safeNextPath(value) ?? '/';
}
