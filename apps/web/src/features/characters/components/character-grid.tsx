import '../catalogue-texts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BOTS_FIRST_PAGE_SIZE, BOTS_NEXT_PAGE_SIZE, BOT_FILTER_TAGS, type BotFilterTag } from '@reverie/shared';
import { useBots } from '../api/get-bots';
import { CharacterCard, CharacterCardSkeleton } from './character-card';

const FILTER_LABELS: Record<BotFilterTag, string> = {
  official: 'explore.filter_official',
  custom: 'explore.filter_custom',
  anime: 'explore.filter_anime',
  realistic: 'explore.filter_realistic',
};

const GRID = 'grid grid-cols-2 gap-3 sm:grid-cols-3 md:grid-cols-4 lg:grid-cols-5 xl:grid-cols-6';

/** The explore filters and the catalogue grid with infinite scroll. */
export function CharacterGrid() {
  const { t } = useTranslation();
  const [tags, setTags] = useState<BotFilterTag[]>([]);
  const query = useBots(tags);
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;

  useEffect(() => {
    const node = sentinel.current;
    if (!node || !hasNextPage) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { rootMargin: '600px 0px' },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const toggle = (tag: BotFilterTag) =>
    setTags((current) => (current.includes(tag) ? current.filter((x) => x !== tag) : [...current, tag]));
  const bots = query.data?.pages.flatMap((page) => page.results) ?? [];

  return (
    <section aria-label={t('characters.grid_label')}>
      <div role="group" aria-label={t('explore.filters')} className="-mx-4 mb-4 flex gap-2 overflow-x-auto px-4 pb-1">
        {BOT_FILTER_TAGS.map((tag) => {
          const active = tags.includes(tag);
          return (
            <button
              key={tag}
              type="button"
              aria-pressed={active}
              onClick={() => toggle(tag)}
              className={`shrink-0 rounded-full border px-4 py-1.5 text-sm font-medium transition ${
                active
                  ? 'border-primary bg-primary text-on-primary'
                  : 'border-white/15 bg-surface text-muted hover:text-fg'
              }`}
            >
              {t(FILTER_LABELS[tag])}
            </button>
          );
        })}
      </div>
      {query.isError ? (
        <div className="rounded-2xl border border-white/10 bg-surface p-6 text-center">
          <p className="text-muted">{t('characters.load_error')}</p>
          <button
            type="button"
            onClick={() => void query.refetch()}
            className="mt-3 rounded-full bg-primary px-4 py-2 text-sm font-semibold text-on-primary"
          >
            {t('app.retry')}
          </button>
        </div>
      ) : query.isPending ? (
        <div className={GRID} aria-busy="true">
          {Array.from({ length: 12 }, (_, i) => (
            <CharacterCardSkeleton key={i} />
          ))}
        </div>
      ) : bots.length === 0 ? (
        <p className="rounded-2xl border border-white/10 bg-surface p-6 text-center text-muted">
          {t('characters.empty')}
        </p>
      ) : (
        <>
          <div className={GRID} data-testid="character-grid" data-count={bots.length}>
            {bots.map((bot) => (
              <CharacterCard key={bot.id} bot={bot} />
            ))}
            {isFetchingNextPage &&
              Array.from({ length: Math.min(BOTS_NEXT_PAGE_SIZE, 6) }, (_, i) => (
                <CharacterCardSkeleton key={`s${i}`} />
              ))}
          </div>
          <div ref={sentinel} className="h-px" aria-hidden="true" />
          <p className="mt-6 text-center text-sm text-muted" aria-live="polite">
            {isFetchingNextPage
              ? t('characters.loading_more')
              : !hasNextPage && bots.length >= BOTS_FIRST_PAGE_SIZE
                ? t('characters.end')
                : ''}
          </p>
        </>
      )}
    </section>
  );
}
