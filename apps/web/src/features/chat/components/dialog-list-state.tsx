import type { ReactNode } from 'react';
import { Skeleton } from '../../../components/ui/page';
import { useTranslation } from '../../../lib/i18n';

/**
 * The list of a chat dialog (models, personas, the chat history): two skeleton rows while it
 * loads, the load failure, or `children` once it is there.
 */
export function DialogListState<T>({
  query,
  children,
}: {
  query: { isPending: boolean; isError: boolean; data: T | undefined };
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  if (query.isPending)
    return (
      <div className="flex flex-col gap-2">
        <Skeleton className="h-14 w-full" />
        <Skeleton className="h-14 w-full" />
      </div>
    );
  if (query.isError || query.data === undefined)
    return (
      <p role="alert" className="text-sm text-red-300">
        {t('chat.load_failed')}
      </p>
    );
  return <>{children(query.data)}</>;
}
