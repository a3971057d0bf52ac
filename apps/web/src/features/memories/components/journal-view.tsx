import '../texts';
import { BookHeart } from 'lucide-react';
import { showAlert } from '../../../components/ui/alerts';
import { Icon } from '../../../components/ui/icon';
import { LoadFailed } from '../../../components/ui/load-failed';
import { Skeleton } from '../../../components/ui/page';
import { formatDay } from '../../../lib/format';
import { currentLocale, useTranslation } from '../../../lib/i18n';
import { useJournal } from '../api/get-journal';
import { useUpdateJournalSettings } from '../api/update-journal-settings';
import { failureMessage } from './memory-form';
import { ShowMore } from './show-more';

/**
 * The character's journal: off until the user turns it on (a switch); once on, a short diary
 * entry in the character's voice for each day of conversation, newest day first.
 */
export function JournalView({ viewer, botId, name }: { viewer: string; botId: string; name: string }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const journal = useJournal(viewer, botId);
  const settings = useUpdateJournalSettings(viewer, botId);
  const enabled = journal.data?.pages[0]?.enabled ?? false;
  const entries = journal.data?.pages.flatMap((page) => page.results) ?? [];

  const toggle = () => {
    const next = !enabled;
    settings.mutate(next, {
      onSuccess: () => showAlert(t(next ? 'memories.journal_on_done' : 'memories.journal_off_done', { name })),
      onError: (failure) => showAlert(failureMessage(failure, t('memories.failed')), { type: 'error' }),
    });
  };

  if (journal.isPending) {
    return (
      <div className="flex flex-col gap-3" aria-busy="true">
        <Skeleton className="h-16 w-full" />
        <Skeleton className="h-24 w-full" />
      </div>
    );
  }
  if (journal.isError) {
    return (
      <LoadFailed
        text={t('memories.journal_load_failed')}
        retryLabel={t('memories.try_again')}
        onRetry={() => void journal.refetch()}
        className="py-10"
      />
    );
  }
  return (
    <section className="flex flex-col gap-4" data-testid="journal" aria-labelledby="journal-title">
      <div className="flex items-start gap-3 rounded-2xl border border-white/10 bg-surface px-4 py-3">
        <div className="min-w-0 flex-1">
          <h2 id="journal-title" className="font-semibold">
            {t('memories.journal_title', { name })}
          </h2>
          <p className="mt-1 text-sm text-muted">{t('memories.journal_text', { name })}</p>
        </div>
        <button
          type="button"
          role="switch"
          aria-checked={enabled}
          aria-label={t('memories.journal_toggle')}
          onClick={toggle}
          disabled={settings.isPending}
          data-testid="journal-toggle"
          className={`relative mt-1 h-7 w-12 shrink-0 rounded-full transition-colors disabled:opacity-50 ${enabled ? 'bg-primary' : 'bg-white/15'}`}
        >
          <span
            className={`absolute top-1 left-1 h-5 w-5 rounded-full bg-white transition-transform ${enabled ? 'translate-x-5' : ''}`}
            aria-hidden="true"
          />
        </button>
      </div>
      {entries.length === 0 ? (
        <p className="py-6 text-center text-sm text-muted" role="status" data-testid="journal-empty">
          {enabled ? t('memories.journal_empty', { name }) : t('memories.journal_off', { name })}
        </p>
      ) : (
        <ol className="flex flex-col gap-3" data-testid="journal-entries">
          {entries.map((entry) => (
            <li
              key={entry.id}
              data-testid="journal-entry"
              className="rounded-2xl border border-white/10 bg-surface px-4 py-3"
            >
              <time dateTime={entry.day} className="flex items-center gap-1.5 text-xs font-semibold text-primary">
                <Icon icon={BookHeart} size="sm" className="h-3.5 w-3.5" />
                {formatDay(entry.day, locale)}
              </time>
              <p className="mt-2 leading-relaxed break-words whitespace-pre-wrap italic">{entry.text}</p>
            </li>
          ))}
        </ol>
      )}
      <ShowMore pages={journal} />
    </section>
  );
}
