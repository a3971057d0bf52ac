import '../../features/lorebooks/texts';
import { Link, useParams } from 'react-router';
import { LoadFailed } from '../../components/ui/load-failed';
import { Page, Skeleton } from '../../components/ui/page';
import { useLorebook } from '../../features/lorebooks/api/get-lorebooks';
import { LorebookEditor } from '../../features/lorebooks/components/lorebook-editor';
import { LOREBOOKS_PATH } from '../../features/lorebooks/paths';
import { ApiRequestError } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { ErrorView } from './error-page';

/**
 * `/lorebooks/{id}` (one of the user's books) and `/lorebooks/character/{slug}` (a character's
 * book, for its author: made from the card's book on first open): the lorebook editor.
 */
export function Component() {
  const { t } = useTranslation();
  const { id, slug } = useParams();
  const book = useLorebook(slug ? { character: slug } : { id: id ?? '' });
  if (book.isPending)
    return (
      <Page title={t('lorebooks.title')}>
        <Skeleton className="h-64 w-full max-w-3xl" />
      </Page>
    );
  if (book.isError) {
    if (book.error instanceof ApiRequestError && book.error.status === 404) return <ErrorView status={404} />;
    return (
      <Page title={t('lorebooks.title')}>
        <LoadFailed
          text={t('lorebooks.load_failed')}
          retryLabel={t('lorebooks.try_again')}
          onRetry={() => void book.refetch()}
        />
      </Page>
    );
  }
  const character = book.data.character;
  return (
    <Page
      title={book.data.name}
      headerClassName="max-w-3xl"
      subtitle={character ? t('lorebooks.character_book', { name: character.name }) : t('lorebooks.user_book')}
      actions={
        character ? (
          <Link
            to={`/${character.slug}`}
            className="rounded-full border border-white/15 px-4 py-2 text-sm hover:bg-white/5"
          >
            {t('lorebooks.back_to_character')}
          </Link>
        ) : (
          <Link to={LOREBOOKS_PATH} className="rounded-full border border-white/15 px-4 py-2 text-sm hover:bg-white/5">
            {t('lorebooks.all_books')}
          </Link>
        )
      }
    >
      <div className="max-w-3xl">
        <LorebookEditor book={book.data} />
      </div>
    </Page>
  );
}
