import { useTranslation } from '../../../lib/i18n';

/** "Show more" under a list read page by page (the memories, the journal), while a next page exists. */
export function ShowMore({
  pages,
}: {
  pages: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> };
}) {
  const { t } = useTranslation();
  if (!pages.hasNextPage) return null;
  return (
    <button
      type="button"
      onClick={() => void pages.fetchNextPage()}
      disabled={pages.isFetchingNextPage}
      className="self-center rounded-full border border-white/15 px-5 py-2 text-sm hover:border-primary disabled:opacity-50"
    >
      {t('memories.show_more')}
    </button>
  );
}
