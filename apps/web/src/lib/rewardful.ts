import { REWARDFUL_ORIGIN } from '@reverie/shared';
import { analytics } from './analytics';

let requested = false;

/**
 * Loads the Rewardful affiliate script when the operator configured a key, and reports
 * `rewardful_loaded` once it has loaded (spec §7).
 */
export function loadRewardful(key: string | null | undefined): void {
  if (!key || requested) return;
  requested = true;
  const script = document.createElement('script');
  script.src = `${REWARDFUL_ORIGIN}/rw.js`;
  script.async = true;
  script.dataset.rewardful = key;
  script.addEventListener('load', () => analytics().track('rewardful_loaded'));
  document.head.appendChild(script);
}
