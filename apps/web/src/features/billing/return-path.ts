import { safeReturnPath } from '../../lib/return-path';

/** The checks themselves are shared with the log-in's `next=` (`lib/return-path.ts`). */
export { currentReturnPath, safeReturnPath } from '../../lib/return-path';

/**
 * The page to land on after a checkout, with its outcome for `PurchaseReturn`. Safe by
 * construction, whatever the check above accepts: the answer is built from a URL of this
 * origin and its path never starts with `//` (which a browser would read as another host).
 * Stripe's and NOWPayments' return addresses carry `payment=<id>` from the server; the
 * sandbox's page adds it here.
 */
export function purchaseReturnUrl(
  returnPath: string,
  outcome: 'success' | 'failed',
  plan: string,
  paymentId?: string,
): string {
  const origin = window.location.origin;
  let url = new URL(safeReturnPath(returnPath), origin);
  if (url.origin !== origin || url.pathname.startsWith('//')) url = new URL('/', origin);
  url.searchParams.set('purchase', outcome);
  url.searchParams.set('plan', plan);
  // With the payment's id the page asks whether it is already credited (one honest toast).
  if (paymentId) url.searchParams.set('payment', paymentId);
  return `${url.pathname}${url.search}`;
}
