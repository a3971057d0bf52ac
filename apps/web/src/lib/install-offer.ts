import { useSyncExternalStore } from 'react';
import { installEvent, INSTALL_OFFERED, MESSAGES_SENT, offerDone } from './pwa';
import { storage } from './storage';

/** The install offer comes once the user has sent this many messages (never on the first screen). */
export const INSTALL_AFTER_MESSAGES = 5;

/** Counts a message the user sent (the install offer waits for a few). */
export function countSentMessage(): void {
  const sent = Number(storage.get(MESSAGES_SENT) ?? '0') || 0;
  storage.set(MESSAGES_SENT, String(Math.min(sent + 1, 1000)));
}

/** Whether the app already runs installed (standalone). */
export const isStandalone = () =>
  window.matchMedia?.('(display-mode: standalone)').matches === true ||
  (navigator as Navigator & { standalone?: boolean }).standalone === true;

/** iPhone and iPad Safari: no install prompt, the Share sheet's "Add to Home Screen" instead. */
export const isIos = () =>
  /iPhone|iPad|iPod/.test(navigator.userAgent) ||
  (navigator.userAgent.includes('Macintosh') && navigator.maxTouchPoints > 1);

/**
 * The install offer: `kind` is `prompt` (the browser's install dialog), `ios` (the Share →
 * Add to Home Screen instructions) or null (not now: installed already, offered once before,
 * fewer than INSTALL_AFTER_MESSAGES messages sent, or the browser cannot install).
 */
export function useInstallOffer() {
  const event = useSyncExternalStore(installEvent.subscribe, installEvent.get);
  useSyncExternalStore(offerDone.subscribe, offerDone.get);
  const offered = storage.get(INSTALL_OFFERED) === '1';
  const sent = Number(storage.get(MESSAGES_SENT) ?? '0') || 0;
  const ready = !offered && sent >= INSTALL_AFTER_MESSAGES && !isStandalone();
  const kind: 'prompt' | 'ios' | null = !ready ? null : event ? 'prompt' : isIos() ? 'ios' : null;
  return {
    kind,
    /** Shows the browser's install dialog (once: the offer is then done, whatever the answer). */
    async install() {
      storage.set(INSTALL_OFFERED, '1');
      const current = installEvent.get();
      installEvent.set(null);
      offerDone.set(offerDone.get() + 1);
      if (current) await current.prompt().catch(() => undefined);
    },
    /** Not now: the offer is done (the browser's own install stays in its menu). */
    dismiss() {
      storage.set(INSTALL_OFFERED, '1');
      installEvent.set(null);
      offerDone.set(offerDone.get() + 1);
    },
  };
}
