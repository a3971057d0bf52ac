import { lazy, Suspense, type ReactNode } from 'react';
import { useOnline } from '../lib/pwa';

// Loaded only when the network is gone (the service worker precached its chunk).
const OfflinePage = lazy(() => import('../components/pwa/offline-page').then((m) => ({ default: m.OfflinePage })));

/** The app while the browser has a network; the offline page (the last chats) while it has none. */
export function OfflineGate({ children }: { children: ReactNode }) {
  if (useOnline()) return children;
  return (
    <Suspense fallback={null}>
      <OfflinePage />
    </Suspense>
  );
}
