import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { createAppRouter } from './app/router';
import { AppProviders } from './lib/providers';
import { initI18n } from './lib/i18n';
import { captureInstallPrompt } from './lib/pwa';
import { isAuthorized, subscribeSession } from './lib/session';
import { OfflineGate } from './app/offline-gate';
import { startProfileLoad } from './features/auth';
import './styles/app.css';

void initI18n();
// A signed-in visit's profile is asked for now, while the page's code loads (the layout's
// query takes the answer): pages wait for it.
startProfileLoad();
const router = createAppRouter();
// The installable app (docs/companion.md "Push and the app"): the browser's install prompt is
// kept for the right moment, the service worker registered; a notification tapped while the
// app is open navigates it. Signing out forgets the chats kept for the offline page and this
// browser's push subscription.
captureInstallPrompt();
// The service worker's code loads once the page has: it never delays the first screen.
const registerWorker = () =>
  void import('./lib/sw-register').then((sw) => sw.registerServiceWorker((url) => void router.navigate(url)));
if (document.readyState === 'complete') registerWorker();
else window.addEventListener('load', registerWorker, { once: true });
subscribeSession(() => {
  if (isAuthorized()) return;
  void import('./lib/chats-snapshot').then((kept) => kept.clearChatsSnapshot());
  void import('./lib/push').then((push) => push.forgetPushSubscription());
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders>
      <OfflineGate>
        <RouterProvider router={router} />
      </OfflineGate>
    </AppProviders>
  </StrictMode>,
);
