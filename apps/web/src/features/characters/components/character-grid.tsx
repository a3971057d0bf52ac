import '../catalogue-texts';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from '../../../lib/i18n';
import { Plus } from 'lucide-react';
import {
  BOTS_FIRST_PAGE_SIZE,
  BOTS_NEXT_PAGE_SIZE,
  BOT_FILTER_TAGS,
  BOT_SEARCH_MAX,
  type BotFilterTag,
} from '@reverie/shared';
import { Icon } from '../../../components/ui/icon';
import { SearchField } from '../../../components/ui/search-field';
import { useBots } from '../api/get-bots';
import { CharacterCard, CharacterCardSkeleton } from './character-card';

const FILTER_LABELS: Record<BotFilterTag, string> = {
  official: 'explore.filter_official',
  custom: 'explore.filter_custom',
  anime: 'explore.filter_anime',
  realistic: 'explore.filter_realistic',
};

const GRID = 'grid grid-cols-2 gap-3 sm:grid-cols-3 md:grid-cols-4 lg:grid-cols-5 xl:grid-cols-6';

/** Cards on a phone's first screen (two rows of two) and more: their pictures load first. */
const FIRST_SCREEN_CARDS = 4;

/** How long typing pauses before the search goes into the URL (and to the server). */
export const SEARCH_DELAY_MS = 300;

/**
 * The search box: what is typed goes into the page's `?q=` after a pause (replacing the
 * history entry), and back/forward or a shared link set the box from the URL.
 */
function useUrlSearch(): [string, string, (value: string) => void] {
  const [params, setParams] = useSearchParams();
  const applied = params.get('q') ?? '';
  const [text, setText] = useState(applied);
  const typed = useRef(applied);

  useEffect(() => {
    // The URL changed without typing (back, a link): show it.
    if (applied.trim() !== typed.current.trim()) {
      typed.current = applied;
      setText(applied);
    }
  }, [applied]);

  useEffect(() => {
    if (text.trim() === applied.trim()) return;
    const timer = setTimeout(() => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (text.trim()) next.set('q', text.trim());
          else next.delete('q');
          return next;
        },
        { replace: true, preventScrollReset: true },
      );
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, applied, setParams]);

  const change = (value: string) => {
    typed.current = value;
    setText(value);
  };
  return [text, applied.trim(), change];
}

/**
 * The explore search, filters and the catalogue grid with infinite scroll. `onCreate` opens
 * character creation (the page knows whether that means signing in first).
 */
export function CharacterGrid({ onCreate }: { onCreate?: () => void }) {
  const { t } = useTranslation();
  const [tags, setTags] = useState<BotFilterTag[]>([]);
  const [text, search, setText] = useUrlSearch();
  const query = useBots(tags, search);
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
  const onlyCustom = tags.includes('custom') && !tags.includes('official');

  return (
    <section aria-label={t('characters.grid_label')}>
      <SearchField
        value={text}
        onChange={setText}
        maxLength={BOT_SEARCH_MAX}
        label={t('explore.search_label')}
        placeholder={t('explore.search_placeholder')}
        testId="character-search"
        className="mb-3"
      />
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
        <div className="rounded-2xl border border-white/10 bg-surface p-6 text-center" data-testid="catalogue-empty">
          <p className="text-muted">
            {search
              ? t('explore.no_results', { query: search })
              : onlyCustom
                ? t('explore.custom_empty')
                : t('characters.empty')}
          </p>
          {onlyCustom && !search && onCreate && (
            <button
              type="button"
              onClick={onCreate}
              data-testid="create-one"
              className="mt-4 inline-flex items-center gap-1.5 rounded-full bg-primary px-5 py-2 text-sm font-semibold text-on-primary hover:brightness-110"
            >
              <Icon icon={Plus} size="sm" />
              {t('explore.create_own')}
            </button>
          )}
        </div>
      ) : (
        <>
          <div
            className={`${GRID} transition-opacity ${query.isPlaceholderData ? 'opacity-60' : ''}`}
            data-testid="character-grid"
            data-count={bots.length}
            aria-busy={query.isPlaceholderData || undefined}
          >
            {bots.map((bot, index) => (
              <CharacterCard key={bot.id} bot={bot} priority={index < FIRST_SCREEN_CARDS} />
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
