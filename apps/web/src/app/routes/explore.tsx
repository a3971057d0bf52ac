import '../../features/characters/catalogue-texts';
import { Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Flame, Gift, MessageCircleHeart, Plus } from 'lucide-react';
import { Icon } from '../../components/ui/icon';
import { useSession } from '../../lib/session';
import { DailyClaim } from '../../features/billing/components/daily-claim';
import { useModal } from '../modals';
import { CharacterGrid } from '../../features/characters/components/character-grid';

const OFFERS = [
  { icon: MessageCircleHeart, title: 'explore.offer_free_title', text: 'explore.offer_free_text' },
  { icon: Gift, title: 'explore.offer_claim_title', text: 'explore.offer_claim_text' },
  { icon: Flame, title: 'explore.offer_discount_title', text: 'explore.offer_discount_text' },
] as const;

/** Explore, the landing page: the offers, then the characters. */
export function Component() {
  const { t } = useTranslation();
  const { isAuthorized } = useSession();
  const modal = useModal();
  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-6 lg:px-6 lg:py-10">
      <section className="relative overflow-hidden rounded-3xl border border-white/10 bg-surface p-6 sm:p-10">
        <div className="pointer-events-none absolute inset-0 bg-[radial-gradient(circle_at_85%_0%,var(--color-primary)_0,transparent_50%),radial-gradient(circle_at_0%_100%,var(--color-secondary)_0,transparent_45%)] opacity-30" />
        <div className="relative max-w-2xl">
          <h1 className="text-3xl font-bold tracking-tight sm:text-5xl">{t('explore.hero_title')}</h1>
          <p className="mt-4 text-base text-muted sm:text-lg">{t('explore.hero_text')}</p>
          {!isAuthorized && (
            <button
              type="button"
              onClick={() => modal.open('signup')}
              className="mt-6 rounded-full bg-primary px-6 py-3 font-semibold text-on-primary shadow-lg shadow-primary/30 hover:brightness-110"
            >
              {t('explore.hero_cta')}
            </button>
          )}
        </div>
        <ul className="relative mt-8 grid gap-3 sm:grid-cols-3">
          {OFFERS.map((offer) => (
            <li key={offer.title} className="flex items-start gap-3 rounded-2xl border border-white/10 bg-bg/60 p-4">
              <span className="rounded-xl bg-primary/15 p-2 text-primary">
                <Icon icon={offer.icon} size="lg" />
              </span>
              <span>
                <span className="block font-semibold">{t(offer.title)}</span>
                <span className="mt-0.5 block text-sm text-muted">{t(offer.text)}</span>
              </span>
            </li>
          ))}
        </ul>
      </section>
      <div className="mt-6">
        <DailyClaim />
      </div>
      <div className="mt-10 mb-4 flex items-center justify-between gap-3">
        <h2 className="text-lg font-semibold sm:text-xl">{t('explore.title')}</h2>
        <button
          type="button"
          onClick={() => (isAuthorized ? modal.open('create') : modal.requireAuth('/?create=1'))}
          className="flex shrink-0 items-center gap-1.5 rounded-full border border-white/15 bg-surface px-3 py-2 text-sm font-medium whitespace-nowrap hover:border-primary sm:px-4"
        >
          <Icon icon={Plus} size="sm" />
          {t('characters.create_cta')}
        </button>
      </div>
      <CharacterGrid />
      <Outlet />
    </div>
  );
}
