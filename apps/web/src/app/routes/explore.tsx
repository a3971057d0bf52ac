import '../../features/characters/catalogue-texts';
import { lazy, Suspense } from 'react';
import { Outlet } from 'react-router';
import { useTranslation } from '../../lib/i18n';
import { Plus } from 'lucide-react';
import { Icon } from '../../components/ui/icon';
import { useSession } from '../../lib/session';
import { withChunkReload } from '../../lib/chunk-reload';
import { useModal } from '../../lib/modals';
import { CharacterGrid } from '../../features/characters/components/character-grid';
import { useProfile } from '../../lib/profile';

// Members only: guests do not download the daily claim.
const DailyClaim = lazy(
  withChunkReload(() =>
    import('../../features/billing/components/daily-claim').then((m) => ({ default: m.DailyClaim })),
  ),
);

// Members only too: "Continue chatting" and "Popular this week" (issue 30).
const ContinueChattingRow = lazy(
  withChunkReload(() =>
    import('../../features/chat/components/continue-row').then((m) => ({ default: m.ContinueChattingRow })),
  ),
);
const PopularRow = lazy(
  withChunkReload(() =>
    import('../../features/characters/components/popular-row').then((m) => ({ default: m.PopularRow })),
  ),
);

const OFFERS = [
  { title: 'explore.offer_free_title', text: 'explore.offer_free_text' },
  { title: 'explore.offer_claim_title', text: 'explore.offer_claim_text' },
  { title: 'explore.offer_discount_title', text: 'explore.offer_discount_text' },
] as const;

/** The guests' welcome: one line of title, one of text and the sign-up button, so that characters fit below. */
function GuestHero({ onSignUp }: { onSignUp: () => void }) {
  const { t } = useTranslation();
  return (
    <section
      data-testid="guest-hero"
      className="relative mb-5 overflow-hidden rounded-2xl border border-white/10 bg-surface px-4 py-3.5 sm:mb-6 sm:rounded-3xl sm:px-6 sm:py-5"
    >
      <div className="pointer-events-none absolute inset-0 bg-[radial-gradient(circle_at_85%_0%,var(--color-primary)_0,transparent_55%)] opacity-25" />
      <div className="relative flex flex-wrap items-center gap-x-6 gap-y-2.5">
        <div className="min-w-0 flex-1 basis-64">
          <h1 className="text-lg leading-tight font-bold tracking-tight sm:text-3xl">{t('explore.hero_title')}</h1>
          <p className="mt-1 line-clamp-2 text-sm text-muted sm:mt-2 sm:text-base">{t('explore.hero_text')}</p>
        </div>
        <button
          type="button"
          onClick={onSignUp}
          className="shrink-0 rounded-full bg-primary px-5 py-2 text-sm font-semibold text-on-primary shadow-lg shadow-primary/30 hover:brightness-110 sm:px-6 sm:py-3 sm:text-base"
        >
          {t('explore.hero_cta')}
        </button>
      </div>
      <ul className="relative -mx-4 mt-3 flex gap-2 overflow-x-auto px-4 sm:mx-0 sm:mt-4 sm:grid sm:grid-cols-3 sm:gap-3 sm:overflow-visible sm:px-0">
        {OFFERS.map((offer) => (
          <li
            key={offer.title}
            className="shrink-0 rounded-full border border-white/10 bg-bg/60 px-3 py-1 text-xs font-medium whitespace-nowrap sm:rounded-xl sm:px-4 sm:py-2.5 sm:text-sm sm:whitespace-normal"
          >
            <span className="font-semibold">{t(offer.title)}</span>
            <span className="mt-0.5 hidden text-xs font-normal text-muted sm:block">{t(offer.text)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * Explore, the landing page: characters first. Guests see a compact welcome above them,
 * members none (their daily claim instead).
 */
export function Component() {
  const { t } = useTranslation();
  const { isAuthorized } = useSession();
  const { profile } = useProfile();
  const modal = useModal();
  const create = () => (isAuthorized ? modal.open('create') : modal.requireAuth('/?create=1'));
  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-4 lg:px-6 lg:py-8">
      {isAuthorized && profile && (
        <Suspense fallback={null}>
          <ContinueChattingRow viewer={profile.id} />
        </Suspense>
      )}
      {isAuthorized ? (
        <Suspense fallback={null}>
          <div className="mb-5 empty:hidden">
            <DailyClaim />
          </div>
        </Suspense>
      ) : (
        <GuestHero onSignUp={() => modal.open('signup')} />
      )}
      {isAuthorized && profile && (
        <Suspense fallback={null}>
          <PopularRow viewer={profile.id} />
        </Suspense>
      )}
      <div className="mb-3 flex items-center justify-between gap-3">
        <h2 className="text-base font-semibold sm:text-xl">{t('explore.title')}</h2>
        <button
          type="button"
          onClick={create}
          className="flex shrink-0 items-center gap-1.5 rounded-full border border-white/15 bg-surface px-3 py-1.5 text-sm font-medium whitespace-nowrap hover:border-primary sm:px-4 sm:py-2"
        >
          <Icon icon={Plus} size="sm" />
          {t('characters.create_cta')}
        </button>
      </div>
      <CharacterGrid onCreate={create} />
      <Outlet />
    </div>
  );
}
