import { useSyncExternalStore } from 'react';
import { storage } from './storage';

/**
 * The installable app on the page's side (issue 31, docs/companion.md "Push and the app"):
 * the service worker's registration and the "new version" state, the browser's install
 * prompt kept for the right moment, the network state and the last chats list kept for the
 * offline page. Small stores read with `useSyncExternalStore`.
 */

export function store<T>(initial: T) {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next: T) {
      value = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

// --- Installing the app -----------------------------------------------------------------------

export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

export const installEvent = store<BeforeInstallPromptEvent | null>(null);
/** Bumped when the offer is done, so that every shown offer goes (iOS has no event to clear). */
export const offerDone = store(0);
export const INSTALL_OFFERED = 'install_offered';
export const MESSAGES_SENT = 'messages_sent';

/** Keeps the browser's install prompt (Chromium) for later, instead of its own mini bar. */
export function captureInstallPrompt(): void {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    installEvent.set(event as BeforeInstallPromptEvent);
  });
  window.addEventListener('appinstalled', () => {
    installEvent.set(null);
    storage.set(INSTALL_OFFERED, '1');
  });
}

/** Tests: the install prompt as Chromium would hand it. */
export const setInstallPromptEvent = (event: Event | null) =>
  installEvent.set(event as BeforeInstallPromptEvent | null);

// --- Offline ----------------------------------------------------------------------------------

/**
 * Offline when the browser says so, or when the service worker served the kept shell because
 * the server could not be reached (it marks `<html data-offline>`). While offline, the offline
 * page asks the server every few seconds (`backOnline` once it answers).
 */
const online = store<boolean>(
  typeof navigator === 'undefined' || (navigator.onLine !== false && document.documentElement.dataset.offline !== '1'),
);
if (typeof window !== 'undefined') {
  window.addEventListener('online', () => {
    if (!document.documentElement.dataset.offline) online.set(true);
  });
  window.addEventListener('offline', () => online.set(false));
}

/** The server answered again: the app returns. */
export function backOnline(): void {
  delete document.documentElement.dataset.offline;
  online.set(true);
}

/** Whether the browser has a network (false: the offline page shows). */
export const useOnline = () => useSyncExternalStore(online.subscribe, online.get);
