import '../../features/characters/character-texts';
import { useParams } from 'react-router';
import { LoadFailed } from '../../components/ui/load-failed';
import { Page, Skeleton } from '../../components/ui/page';
import { useCreator } from '../../features/characters/api/get-creator';
import { CreatorCharacters } from '../../features/characters/components/creator-characters';
import { ApiRequestError } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { useNamedPageTitle } from '../route-meta';
import { ErrorView } from './error-page';

/** `/u/{id}`: a creator's page — their public characters (404 when they hid it or have none). */
export function Component() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const creator = useCreator(id);
  useNamedPageTitle(creator.data?.name);
  if (creator.isError) {
    if (creator.error instanceof ApiRequestError && (creator.error.status === 404 || creator.error.status === 400))
      return <ErrorView status={404} />;
    return (
      <LoadFailed
        text={t('characters.creator.load_failed')}
        retryLabel={t('app.retry')}
        onRetry={() => void creator.refetch()}
        className="py-16"
      />
    );
  }
  if (!creator.data)
    return (
      <div className="mx-auto w-full max-w-7xl px-4 py-8 lg:px-6" aria-busy="true">
        <Skeleton className="mb-6 h-9 w-64" />
        <Skeleton className="h-64" />
      </div>
    );
  return (
    <Page
      title={t('characters.creator.title', { name: creator.data.name })}
      subtitle={t('characters.creator.count', { count: creator.data.results.length })}
    >
      <CreatorCharacters bots={creator.data.results} />
    </Page>
  );
}
