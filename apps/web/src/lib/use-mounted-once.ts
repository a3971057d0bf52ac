import { useState } from 'react';

/**
 * True from the first render at which `wanted` is, on: a dialog (with its queries and texts)
 * is mounted the first time it opens, not with the page, and then stays, so that it closes as
 * usual and gives the focus back.
 */
export function useMountedOnce(wanted: boolean): boolean {
  const [mounted, setMounted] = useState(wanted);
  if (wanted && !mounted) setMounted(true);
  return mounted || wanted;
}
