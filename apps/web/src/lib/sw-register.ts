import { useSyncExternalStore } from 'react';
import { store } from './pwa';

/**
 * Registers the service worker (built apps only; not in development). A new version waits
 * until the user reloads from the toast (`useAppUpdate`); the app navigates itself when a
 * notification opens a chat while it is open (`onOpenUrl`).
 */
export async function registerServiceWorker(onOpenUrl: (url: string) => void): Promise<void> {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent<{ type?: string; url?: string }>) => {
    if (event.data?.type !== 'OPEN_URL' || typeof event.data.url !== 'string') return;
    const url = new URL(event.data.url, location.origin);
    if (url.origin === location.origin) onOpenUrl(`${url.pathname}${url.search}${url.hash}`);
  });
  const { registerSW } = await import('virtual:pwa-register');
  const updateSW = registerSW({
    immediate: true,
    onNeedRefresh: () => update.set({ waiting: true, apply: () => updateSW(true) }),
  });
}

// --- The service worker and its updates -----------------------------------------------------

const update = store<{ waiting: boolean; apply: (() => Promise<void>) | null }>({ waiting: false, apply: null });

/** Whether a new version waits, and how to take it (the page reloads). */
export function useAppUpdate() {
  const state = useSyncExternalStore(update.subscribe, update.get);
  return {
    waiting: state.waiting,
    reload: () => void state.apply?.(),
    dismiss: () => update.set({ waiting: false, apply: state.apply }),
  };
}

/** Tests and the journey: a version waiting, as the service worker would report it. */
export const announceUpdate = (apply: () => Promise<void>) => update.set({ waiting: true, apply });
