import '../texts';
import { useState } from 'react';
import type { Memory } from '@reverie/shared';
import { LoadFailed } from '../../../components/ui/load-failed';
import { Modal } from '../../../components/ui/modal';
import { Skeleton } from '../../../components/ui/page';
import { formatDateTime, formatDay } from '../../../lib/format';
import { currentLocale, useTranslation } from '../../../lib/i18n';
import { useMemoryHistory } from '../api/get-memory-history';

/**
 * A memory's history: every revision, newest first — what changed (first remembered,
 * corrected, merged, pinned), by whom, when, and how it read then.
 */
export function MemoryHistoryDialog({
  viewer,
  name,
  memory,
  onClose,
}: {
  viewer: string;
  name: string;
  memory: Memory | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  // The last memory shown stays while the dialog closes (no flash of a loading list).
  const [shown, setShown] = useState(memory);
  if (memory && memory !== shown) setShown(memory);
  const history = useMemoryHistory(viewer, shown?.id ?? null);
  const locale = currentLocale();
  return (
    <Modal
      open={memory !== null}
      onClose={onClose}
      title={t('memories.history_title')}
      description={t('memories.history_text')}
    >
      {history.isPending ? (
        <div className="flex flex-col gap-2" aria-busy="true">
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-16 w-full" />
        </div>
      ) : history.isError ? (
        <LoadFailed
          text={t('memories.load_failed')}
          retryLabel={t('memories.try_again')}
          onRetry={() => void history.refetch()}
        />
      ) : (
        <ol className="flex flex-col gap-2" data-testid="memory-history">
          {history.data.results.map((entry, index) => (
            <li
              key={entry.id}
              data-testid="memory-history-entry"
              data-change={entry.change}
              className={`rounded-xl border px-4 py-3 text-sm ${index === 0 ? 'border-primary/50 bg-primary/10' : 'border-white/10'}`}
            >
              <p className="text-xs text-muted">
                {index === 0 && <span className="mr-2 font-semibold text-fg">{t('memories.history_now')}</span>}
                {t(`memories.change.${entry.change}`)} · {t(`memories.origin.${entry.origin}`, { name })} ·{' '}
                <time dateTime={entry.created_at} className="whitespace-nowrap">
                  {formatDateTime(entry.created_at, locale)}
                </time>
              </p>
              <p className="mt-1 break-words whitespace-pre-wrap">{entry.text}</p>
              {entry.kind === 'event' && entry.event_date && (
                <p className="mt-1 text-xs text-muted">{formatDay(entry.event_date, locale)}</p>
              )}
            </li>
          ))}
        </ol>
      )}
    </Modal>
  );
}
