import '../catalogue-texts';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../../../lib/i18n';
import { BadgeCheck, Lock } from 'lucide-react';
import { CARD_PICTURE_SIZES, cardPictureSrcSet, type Bot } from '@reverie/shared';
import { BlurredPictureHint } from '../../../components/ui/blurred-picture-hint';
import { Icon } from '../../../components/ui/icon';
import { Skeleton } from '../../../components/ui/page';

/** The tags the app itself gives characters (their art style), shown in the reader's language; tags from imported cards are the author's words and stay as written. */
const TAG_LABELS: Record<string, string> = {
  anime: 'explore.filter_anime',
  realistic: 'explore.filter_realistic',
  cartoon: 'explore.tag_cartoon',
};

/**
 * Whether the element is within `margin` of the screen (then for good). The browser's own
 * lazy loading starts pictures up to 2 500 px away on a slow connection, where a dozen of
 * them would share the bandwidth with the first screen's.
 */
function useNearScreen(skip: boolean, margin = '300px') {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(skip || typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const node = ref.current;
    if (near || !node) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), {
      rootMargin: `${margin} 0px`,
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, [near, margin]);
  return [ref, near] as const;
}

/** A catalogue card (`priority`: on the first screen, its picture loads first): avatar, name (up to two lines) and age, tags and one line of description. */
export function CharacterCard({ bot, priority = false }: { bot: Bot; priority?: boolean }) {
  const { t } = useTranslation();
  const [pictureBox, near] = useNearScreen(priority);
  return (
    // The hint is the card's sibling: a link inside the card's link would not be valid.
    <div className="relative flex flex-col">
      <Link
        to={`/${bot.slug}`}
        data-testid="character-card"
        className="group flex flex-1 flex-col overflow-hidden rounded-2xl border border-white/10 bg-surface transition hover:-translate-y-0.5 hover:border-primary/50 focus-visible:outline-2 focus-visible:outline-primary"
      >
        <div ref={pictureBox} className="relative aspect-[4/5] overflow-hidden bg-bg">
          {bot.avatar_url && near && (
            <img
              src={bot.avatar_url}
              // A WebP at the card's size (256 or 512 px across) instead of the full picture.
              srcSet={cardPictureSrcSet(bot.avatar_url)}
              sizes={CARD_PICTURE_SIZES}
              alt={t('characters.avatar_alt', { name: bot.name })}
              // The first rows are on the first screen: fetched at once, before anything else;
              // the others once they come within 300 px of it.
              loading={priority ? 'eager' : 'lazy'}
              fetchPriority={priority ? 'high' : 'auto'}
              decoding="async"
              className="h-full w-full object-cover transition duration-300 group-hover:scale-105"
            />
          )}
          <div className="absolute inset-x-0 bottom-0 h-2/3 bg-gradient-to-t from-black/85 via-black/30 to-transparent" />
          <div className="absolute top-2 left-2 flex gap-1">
            {bot.is_official && (
              <span className="flex items-center gap-1 rounded-full bg-black/55 px-2 py-0.5 text-[11px] font-medium text-white backdrop-blur">
                <Icon icon={BadgeCheck} size="sm" className="text-primary" />
                {t('characters.official')}
              </span>
            )}
            {bot.visibility === 'private' && (
              <span className="flex items-center gap-1 rounded-full bg-black/55 px-2 py-0.5 text-[11px] font-medium text-white backdrop-blur">
                <Icon icon={Lock} size="sm" />
                {t('characters.private')}
              </span>
            )}
          </div>
          <div className="absolute inset-x-0 bottom-0 p-3 text-white">
            <h3 className="line-clamp-2 text-base leading-snug font-semibold break-words" title={bot.name}>
              {bot.name}
              <span className="ml-1.5 text-sm font-normal text-white/75">{bot.age}</span>
            </h3>
            <p className="mt-0.5 line-clamp-1 text-xs text-white/80">{bot.description}</p>
          </div>
        </div>
        {bot.tags.length > 0 && (
          <ul className="flex gap-1 overflow-hidden px-3 py-2">
            {bot.tags.slice(0, 3).map((tag) => (
              <li key={tag} className="truncate rounded-full bg-white/5 px-2 py-0.5 text-[11px] text-muted capitalize">
                {TAG_LABELS[tag.toLowerCase()] ? t(TAG_LABELS[tag.toLowerCase()]!) : tag}
              </li>
            ))}
          </ul>
        )}
      </Link>
      <div className="pointer-events-none absolute inset-x-0 top-0 aspect-[4/5] [&>a]:pointer-events-auto">
        <BlurredPictureHint url={bot.avatar_url} />
      </div>
    </div>
  );
}

export function CharacterCardSkeleton() {
  return (
    <div
      className="flex flex-col overflow-hidden rounded-2xl border border-white/10 bg-surface"
      data-testid="character-skeleton"
    >
      <Skeleton className="aspect-[4/5] rounded-none" />
      <div className="px-3 py-2">
        <Skeleton className="h-4 w-1/2" />
      </div>
    </div>
  );
}
