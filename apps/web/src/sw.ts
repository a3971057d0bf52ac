/// <reference lib="webworker" />
/**
 * The service worker (issue 31, docs/companion.md "Push and the app"), built by vite-plugin-pwa
 * (Workbox, injectManifest): the app shell precached, pages from the network with the shell as
 * the offline fallback (the app then shows its offline page), the current language file kept
 * as it is fetched, pushes shown as notifications whose tap opens the chat, and the app icon's
 * badge set from the unread count a push carries.
 */
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

interface PushPayload {
  title: string;
  body: string;
  icon: string | null;
  url: string;
  tag: string;
  chat_id: string;
  unread: number;
  off_label: string;
}

/** Where a notification's "turn off" action leads: the notification settings. */
const SETTINGS_URL = '/settings#notifications';
const LOCALE_CACHE = 'reverie-locale';

cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

// A new version waits until the page asks it to take over (the "new version — reload" toast).
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

// Pages: the server's (metadata, first screen), else the precached shell when the network is gone.
const NOT_PAGES = /^\/(api|dev|metrics|admin)(\/|$)|\.[a-z0-9]+$/i;
registerRoute(
  ({ request, url }) =>
    request.mode === 'navigate' && url.origin === self.location.origin && !NOT_PAGES.test(url.pathname),
  async ({ request }) => {
    try {
      return await fetch(request);
    } catch (error) {
      const shell = await matchPrecache('/index.html');
      if (!shell) throw error;
      // Marked, so that the app shows its offline page even where the browser still says it is online.
      const html = (await shell.text()).replace('<html ', '<html data-offline="1" ');
      return new Response(html, { headers: shell.headers });
    }
  },
);

// The language file the app fetched last: from the network, else the kept copy.
registerRoute(
  ({ url }) => url.origin === self.location.origin && /^\/locales\/\w+\.json$/.test(url.pathname),
  async ({ request }) => {
    const cache = await caches.open(LOCALE_CACHE);
    try {
      const response = await fetch(request);
      if (response.ok) await cache.put(request, response.clone());
      return response;
    } catch (error) {
      const kept = await cache.match(request);
      if (kept) return kept;
      throw error;
    }
  },
);

function setBadge(count: number): Promise<void> {
  const nav = self.navigator as Navigator & {
    setAppBadge?: (n?: number) => Promise<void>;
    clearAppBadge?: () => Promise<void>;
  };
  if (count > 0) return nav.setAppBadge?.(count).catch(() => undefined) ?? Promise.resolve();
  return nav.clearAppBadge?.().catch(() => undefined) ?? Promise.resolve();
}

self.addEventListener('push', (event) => {
  let payload: PushPayload;
  try {
    payload = event.data?.json() as PushPayload;
  } catch {
    return;
  }
  if (!payload?.title) return;
  const options: NotificationOptions & { renotify?: boolean; actions?: Array<{ action: string; title: string }> } = {
    body: payload.body,
    tag: payload.tag,
    renotify: true,
    data: { url: payload.url, chat_id: payload.chat_id },
    actions: [{ action: 'off', title: payload.off_label }],
    ...(payload.icon ? { icon: payload.icon } : { icon: '/icons/icon-192.png' }),
    badge: '/icons/maskable-192.png',
  };
  event.waitUntil(Promise.all([self.registration.showNotification(payload.title, options), setBadge(payload.unread)]));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data as { url?: string } | undefined;
  const target = new URL(event.action === 'off' ? SETTINGS_URL : (data?.url ?? '/chat'), self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) {
        // The open app navigates itself (client-side routing, no reload), then comes to the front.
        open.postMessage({ type: 'OPEN_URL', url: target });
        await open.focus().catch(() => undefined);
        return;
      }
      await self.clients.openWindow(target);
    })(),
  );
});
