import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Outlet, ScrollRestoration, useLocation, useNavigation, useSearchParams } from 'react-router';
import { useTranslation } from '../../lib/i18n';
import { AlertStack } from '../../components/ui/alerts';
import { analytics } from '../../lib/analytics';
import { withChunkReload } from '../../lib/chunk-reload';
import { loadRewardful } from '../../lib/rewardful';
import { useClientConfig } from '../../lib/client-config';
import { ModalHost } from '../modals';
import { whenIdle } from '../../lib/idle';
import { isSlowConnection, preloadPage } from '../router-preload';
import { useAuthBootstrap } from '../../features/auth';
import { useDocumentTitle, useRouteHandle } from '../route-meta';
import { AgeGate } from './age-gate';
import { ShowNavigationProvider } from './layout-mode';
import { Footer } from './footer';
import { NewsBanner } from './news-banner';
import { TabBar } from './tab-bar';
import { TopBar } from './top-bar';
import { useProfile } from '../../lib/profile';

// Back from a checkout on any page (`?purchase=`): its code loads only then.
const PurchaseReturn = lazy(withChunkReload(() => import('../../features/billing/components/purchase-return')));

// "A new version is ready": its code loads after the first screen, and shows when one waits.
const UpdateToast = lazy(
  withChunkReload(() => import('../../components/pwa/update-toast').then((m) => ({ default: m.UpdateToast }))),
);

// The user's events (unread badges across devices): their code loads after the first screen.
const UserEvents = lazy(withChunkReload(() => import('./user-events').then((m) => ({ default: m.UserEvents }))));

// The side panel (and its dialog code) loads when the burger is first opened.
// Only a signed-in user whose address is not confirmed yet sees it.
const VerifyEmailBanner = lazy(
  withChunkReload(() =>
    import('../../features/auth/components/verify-email-banner').then((m) => ({ default: m.VerifyEmailBanner })),
  ),
);
const SidePanel = lazy(withChunkReload(() => import('./side-panel').then((m) => ({ default: m.SidePanel }))));

function PurchaseReturnOnDemand() {
  const [params] = useSearchParams();
  if (!params.get('purchase')) return null;
  return (
    <Suspense fallback={null}>
      <PurchaseReturn />
    </Suspense>
  );
}

/** Reports every route change as `page_changed {from, to}`. */
function usePageChangedEvents() {
  const location = useLocation();
  const previous = useRef<string | null>(null);
  useEffect(() => {
    const to = location.pathname;
    if (previous.current !== to) {
      analytics().track('page_changed', { from: previous.current ?? '', to });
      previous.current = to;
    }
  }, [location.pathname]);
}

/**
 * Resolves once the document's pictures have all loaded (checked every 500 ms), after `maxMs`,
 * or as soon as `stopped()` (the layout is gone: nothing is checked after it).
 */
function whenPicturesLoaded(maxMs: number, stopped: () => boolean): Promise<void> {
  const deadline = Date.now() + maxMs;
  return new Promise((resolve) => {
    const check = () => {
      // (A closed document has no pictures to wait for: a test environment torn down under a
      // layout that was never unmounted.)
      const images = document.images as HTMLCollectionOf<HTMLImageElement> | undefined;
      if (stopped() || !images || Date.now() > deadline || Array.from(images).every((img) => img.complete)) resolve();
      else setTimeout(check, 500);
    };
    check();
  });
}

/**
 * Once the first page is up — the window's load event, then its pictures (which arrive
 * after the page's data) — loads the main tabs' code in idle time (4 at most at once); not
 * on a slow connection, where it would compete with the page's own pictures.
 */
function usePreloadMainPages() {
  useEffect(() => {
    if (isSlowConnection()) return;
    let stopped = false;
    let cancel = () => {};
    const run = () => ['/', '/chat', '/settings', '/blog'].forEach(preloadPage);
    const schedule = () => {
      if (!stopped && document.images) cancel = whenIdle(run, 5000);
    };
    // The page's data and pictures come after the load event; give them a moment to start.
    const afterLoad = () => {
      const timer = setTimeout(() => void whenPicturesLoaded(15_000, () => stopped).then(schedule), 1500);
      cancel = () => clearTimeout(timer);
    };
    if (document.readyState === 'complete') afterLoad();
    else window.addEventListener('load', afterLoad, { once: true });
    return () => {
      stopped = true;
      window.removeEventListener('load', afterLoad);
      cancel();
    };
  }, []);
}

/**
 * The shell around every page: news banner, top bar, side panel, content, footer and the
 * mobile tab bar. Chat, audio and welcome pages are immersive (no bars, no footer).
 */
export function AppLayout() {
  const { t } = useTranslation();
  const handle = useRouteHandle();
  // A page not found inside an immersive route (`/{slug}` of no character) keeps the bars.
  const [navigationShown, setNavigationShown] = useState(false);
  const immersive = handle.immersive && !navigationShown;
  const navigation = useNavigation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [menuUsed, setMenuUsed] = useState(false);
  usePageChangedEvents();
  useDocumentTitle();
  usePreloadMainPages();
  const { data: clientConfig } = useClientConfig();
  useEffect(() => {
    loadRewardful(clientConfig?.rewardful_key);
  }, [clientConfig?.rewardful_key]);
  useAuthBootstrap();
  // Unread badges follow the user's other devices (a chat read there, a message landed).
  const { profile } = useProfile();

  return (
    <AgeGate>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[80] focus:rounded-full focus:bg-primary focus:px-4 focus:py-2"
      >
        {t('app.skip_to_content')}
      </a>
      {navigation.state === 'loading' && (
        <div
          className="fixed inset-x-0 top-0 z-[65] h-0.5 animate-pulse bg-gradient-to-r from-primary to-secondary"
          role="progressbar"
          aria-label={t('app.loading')}
        />
      )}
      <div
        className={`flex min-h-dvh flex-col ${immersive ? '' : 'pb-[calc(4.25rem+env(safe-area-inset-bottom))] md:pb-0'}`}
      >
        {!immersive && (
          <>
            <NewsBanner />
            <TopBar
              onOpenMenu={() => {
                setMenuUsed(true);
                setMenuOpen(true);
              }}
            />
            {menuUsed && (
              <Suspense fallback={null}>
                <SidePanel open={menuOpen} onClose={() => setMenuOpen(false)} />
              </Suspense>
            )}
          </>
        )}
        <main id="main" className="flex-1">
          <ShowNavigationProvider value={setNavigationShown}>
            <Outlet />
          </ShowNavigationProvider>
        </main>
        {!immersive && <Footer />}
        {!immersive && <TabBar noCurrentTab={navigationShown} />}
      </div>
      <ModalHost />
      <PurchaseReturnOnDemand />
      {/* Immersive pages (chat, call) keep the bottom free for their own controls. */}
      {!immersive && profile && !profile.is_email_confirmed && (
        <Suspense fallback={null}>
          <VerifyEmailBanner />
        </Suspense>
      )}
      <AlertStack />
      {profile && (
        <Suspense fallback={null}>
          <UserEvents viewer={profile.id} />
        </Suspense>
      )}
      <Suspense fallback={null}>
        <UpdateToast />
      </Suspense>
      <ScrollRestoration />
    </AgeGate>
  );
}
