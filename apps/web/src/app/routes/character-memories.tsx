import { useParams, useSearchParams } from 'react-router';
import { useBot } from '../../features/characters/api/get-bot';
import { MemoriesPage } from '../../features/memories/components/memories-page';
import { ApiRequestError } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { useProfile } from '../../lib/profile';
import { LoadFailed } from '../../components/ui/load-failed';
import { Skeleton } from '../../components/ui/page';
import { useNamedPageTitle } from '../route-meta';
import { useBack } from '../use-back';
import { ErrorView } from './error-page';

function MemoriesSkeleton() {
  return (
    <div className="mx-auto flex min-h-dvh w-full max-w-3xl flex-col gap-3 px-4 py-4" aria-busy="true">
      <Skeleton className="h-9 w-2/3" />
      <Skeleton className="h-10 w-full rounded-full" />
      <Skeleton className="h-16 w-full" />
      <Skeleton className="h-16 w-full" />
    </div>
  );
}

/**
 * `/memories/{slug}` (`?memory=<id>` opens one): what the character remembers about the
 * signed-in user (`features/memories`), reached from the chat's menu, the character's intro
 * and a reply's "remembered" mark.
 */
export function Component() {
  const { t } = useTranslation();
  const { slug = '' } = useParams();
  const [params] = useSearchParams();
  const { profile } = useProfile();
  const bot = useBot(slug);
  const back = useBack(`/${slug}`);
  const name = bot.data?.name;
  useNamedPageTitle(name ? t('memories.title', { name }) : undefined);
  if (bot.isPending || !profile) return <MemoriesSkeleton />;
  if (bot.isError) {
    if (bot.error instanceof ApiRequestError && bot.error.status === 404) return <ErrorView status={404} />;
    return (
      <LoadFailed
        text={t('memories.load_failed')}
        retryLabel={t('memories.try_again')}
        onRetry={() => void bot.refetch()}
        className="min-h-dvh justify-center px-4"
      />
    );
  }
  return (
    <MemoriesPage
      key={bot.data.id}
      viewer={profile.id}
      bot={bot.data}
      highlightId={params.get('memory')}
      onBack={back}
      journal
    />
  );
}
