import { AvatarRow } from '../../../components/ui/avatar-row';
import { useTranslation } from '../../../lib/i18n';
import { usePopular } from '../api/get-popular';

/** Explore's "Popular this week": the characters most people chatted with in the last 7 days (none: no row). */
export function PopularRow({ viewer }: { viewer: string }) {
  const { t } = useTranslation();
  const popular = usePopular(viewer);
  if (!popular.data?.length) return null;
  return (
    <AvatarRow
      title={t('explore.popular_week')}
      testId="popular-week"
      items={popular.data.map((bot) => ({
        key: bot.id,
        to: `/${bot.slug}`,
        name: bot.name,
        avatarUrl: bot.avatar_url,
        note: t('explore.popular_people', { count: bot.people_week }),
      }))}
    />
  );
}
