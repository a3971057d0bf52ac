import type { ReactNode } from 'react';
import { Skeleton } from '../../../components/ui/page';
import { useTranslation } from '../../../lib/i18n';

/**
 * The content of a chat dialog (models, personas, the chat history; the author's note and the
 * summary's editors): `skeleton` while it loads (by default two skeleton rows of a list), the
 * load failure, or `children` once it is there.
 */
export function DialogListState<T>({
  query,
  skeleton,
  children,
}: {
  query: { isPending: boolean; isError: boolean; data: T | undefined };
  skeleton?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  if (query.isPending)
    return (
      skeleton ?? (
        <div className="flex flex-col gap-2">
          <Skeleton className="h-14 w-full" />
          <Skeleton className="h-14 w-full" />
        </div>
      )
    );
  if (query.isError || query.data === undefined)
    return (
      <p role="alert" className="text-sm text-red-300">
        {t('chat.load_failed')}
      </p>
    );
  return <>{children(query.data)}</>;
}
