import '../texts';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Plus } from 'lucide-react';
import type { Memory, MemoryKind } from '@reverie/shared';
import { MEMORY_SEARCH_MAX } from '@reverie/shared';
import { showAlert } from '../../../components/ui/alerts';
import { BackHeader, HeaderAvatar } from '../../../components/ui/back-header';
import { Icon } from '../../../components/ui/icon';
import { IconTextButton } from '../../../components/ui/icon-button';
import { LoadFailed } from '../../../components/ui/load-failed';
import { Skeleton } from '../../../components/ui/page';
import { SearchField } from '../../../components/ui/search-field';
import { SegmentedControl } from '../../../components/ui/segmented-control';
import { ApiRequestError } from '../../../lib/api-client';
import { formatDay } from '../../../lib/format';
import { currentLocale, useTranslation } from '../../../lib/i18n';
import { useSearchQuery } from '../../../lib/use-debounced';
import { useCreateMemory } from '../api/create-memory';
import { useForgetAllMemories } from '../api/forget-all-memories';
import { useForgetMemory } from '../api/forget-memory';
import { useMemory } from '../api/get-memory';
import { useMemories } from '../api/get-memories';
import { useUpdateMemory } from '../api/update-memory';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { JournalView } from './journal-view';
import { KIND_ICONS, KIND_ORDER } from './kinds';
import { MemoryCard, type MemoryActions } from './memory-card';
import { failureMessage, MemoryFormDialog, type MemoryFields } from './memory-form';
import { MemoryHistoryDialog } from './memory-history-dialog';
import { ShowMore } from './show-more';

/** The character the memories belong to, as the page shows it. */
export interface MemoriesCharacter {
  id: string;
  name: string;
  avatar_url: string | null;
}

/** A shared moment's day for the timeline: its own, else the day it was remembered. */
const momentDay = (memory: Memory) => memory.event_date ?? memory.created_at.slice(0, 10);

/** The memories by kind, in the page's order; shared moments newest day first. */
function groupByKind(memories: Memory[]): [MemoryKind, Memory[]][] {
  const groups = new Map<MemoryKind, Memory[]>();
  for (const memory of memories) {
    const list = groups.get(memory.kind) ?? [];
    list.push(memory);
    groups.set(memory.kind, list);
  }
  const events = groups.get('event');
  if (events) events.sort((a, b) => (momentDay(a) < momentDay(b) ? 1 : momentDay(a) > momentDay(b) ? -1 : 0));
  return KIND_ORDER.flatMap((kind) => {
    const list = groups.get(kind);
    return list?.length ? [[kind, list] as [MemoryKind, Memory[]]] : [];
  });
}

type Dialog =
  | { type: 'add' }
  | { type: 'edit'; memory: Memory }
  | { type: 'history'; memory: Memory }
  | { type: 'forget'; memory: Memory }
  | { type: 'forget-all' }
  | null;

function PageSkeleton() {
  return (
    <div className="flex flex-col gap-3" aria-busy="true" data-testid="memories-loading">
      <Skeleton className="h-5 w-40" />
      <Skeleton className="h-16 w-full" />
      <Skeleton className="h-16 w-full" />
      <Skeleton className="mt-3 h-5 w-32" />
      <Skeleton className="h-16 w-full" />
    </div>
  );
}

/**
 * "What {name} remembers about you": the user's long-term memories of one character, by
 * kind (shared moments on a timeline), with search; each can be corrected (its history
 * kept), pinned or forgotten, one can be added by hand, and everything forgotten at once.
 * `highlightId` (a reply's mark opened it) is shown highlighted and scrolled to.
 */
export function MemoriesPage({
  viewer,
  bot,
  highlightId = null,
  onBack,
  journal = false,
}: {
  viewer: string;
  bot: MemoriesCharacter;
  highlightId?: string | null;
  onBack: () => void;
  /** The character's journal as a second tab. */
  journal?: boolean;
}) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const name = bot.name;
  const { search, setSearch, query: q } = useSearchQuery();

  const list = useMemories(viewer, bot.id, q);
  const create = useCreateMemory(viewer, bot.id);
  const update = useUpdateMemory(viewer, bot.id);
  const forget = useForgetMemory(viewer, bot.id);
  const forgetAll = useForgetAllMemories(viewer, bot.id);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [tab, setTab] = useState<'memories' | 'journal'>('memories');
  const close = () => setDialog(null);

  const memories = useMemo(() => list.data?.pages.flatMap((page) => page.results) ?? [], [list.data]);
  const groups = useMemo(() => groupByKind(memories), [memories]);
  // How many of each kind there are in all (the first page says; a page holds 200).
  const counts = list.data?.pages[0]?.counts ?? null;

  // The memory a reply's mark opened: highlighted where it is, or read on its own when the
  // loaded pages do not hold it.
  const listed = highlightId ? memories.some((memory) => memory.id === highlightId) : false;
  const single = useMemory(viewer, highlightId && list.isSuccess && !listed && !q ? highlightId : null);
  const highlightRef = useRef<HTMLDivElement | null>(null);
  const highlightShown = listed || Boolean(single.data);
  useEffect(() => {
    if (!highlightShown) return;
    highlightRef.current?.scrollIntoView?.({ block: 'center' });
    highlightRef.current?.focus({ preventScroll: true });
  }, [highlightShown]);

  const actions: MemoryActions = {
    onEdit: (memory) => setDialog({ type: 'edit', memory }),
    onHistory: (memory) => setDialog({ type: 'history', memory }),
    onForget: (memory) => setDialog({ type: 'forget', memory }),
    onTogglePin: (memory) => {
      update.mutate(
        { id: memory.id, pinned: !memory.pinned },
        {
          onSuccess: (saved) =>
            showAlert(saved.pinned ? t('memories.pinned_done', { name }) : t('memories.unpinned_done')),
          onError: (failure) => showAlert(failureMessage(failure, t('memories.failed')), { type: 'error' }),
        },
      );
    },
  };

  const submit = async (fields: MemoryFields) => {
    if (dialog?.type === 'edit') {
      const { memory } = dialog;
      await update.mutateAsync({
        id: memory.id,
        text: fields.text,
        kind: fields.kind,
        event_date: fields.kind === 'event' ? fields.event_date : null,
      });
      showAlert(t('memories.corrected'));
    } else {
      const { merged } = await create.mutateAsync({
        text: fields.text,
        kind: fields.kind,
        event_date: fields.event_date,
      });
      showAlert(merged ? t('memories.already_remembered', { name }) : t('memories.added'));
    }
    close();
  };

  const confirmForget = async () => {
    if (dialog?.type !== 'forget') return;
    try {
      await forget.mutateAsync(dialog.memory.id);
      showAlert(t('memories.forgotten'));
      close();
    } catch (failure) {
      // Already gone (another tab): the lists catch up, nothing is left to do.
      if (failure instanceof ApiRequestError && failure.status === 404) close();
      else showAlert(failureMessage(failure, t('memories.failed')), { type: 'error' });
    }
  };

  const confirmForgetAll = async () => {
    try {
      await forgetAll.mutateAsync();
      showAlert(t('memories.forgot_all', { name }));
      close();
    } catch (failure) {
      showAlert(failureMessage(failure, t('memories.failed')), { type: 'error' });
    }
  };

  const card = (memory: Memory) => {
    const highlighted = memory.id === highlightId;
    return (
      <MemoryCard
        ref={highlighted ? highlightRef : undefined}
        memory={memory}
        name={name}
        highlighted={highlighted}
        actions={actions}
        pending={update.isPending && update.variables?.id === memory.id}
      />
    );
  };

  const nothingYet = list.isSuccess && memories.length === 0 && !q && !search;

  return (
    <div className="min-h-dvh bg-bg" data-testid="memories-page">
      <BackHeader backLabel={t('memories.back')} onBack={onBack} backTestId="memories-back" gap="gap-2">
        <HeaderAvatar url={bot.avatar_url} />
        <h1
          className="line-clamp-2 min-w-0 flex-1 pr-2 text-[0.95rem] leading-tight font-semibold sm:text-base"
          data-testid="memories-title"
        >
          {t('memories.title', { name })}
        </h1>
      </BackHeader>

      <main className="mx-auto flex w-full max-w-3xl flex-col gap-5 px-4 pt-4 pb-16">
        {journal && (
          <SegmentedControl
            options={[
              { value: 'memories', label: t('memories.tab_memories') },
              { value: 'journal', label: t('memories.tab_journal') },
            ]}
            value={tab}
            onChange={setTab}
            label={t('memories.tabs')}
            fill
            className="w-full sm:max-w-xs"
          />
        )}
        {tab === 'journal' ? (
          <JournalView viewer={viewer} botId={bot.id} name={name} />
        ) : (
          <>
            <p className="text-sm text-muted">{t('memories.intro', { name })}</p>
            <div className="flex flex-wrap items-center gap-2">
              <SearchField
                value={search}
                onChange={setSearch}
                label={t('memories.search_label')}
                placeholder={t('memories.search_placeholder')}
                maxLength={MEMORY_SEARCH_MAX}
                testId="memories-search"
                className="min-w-0 flex-1 basis-56"
              />
              <IconTextButton
                icon={Plus}
                onClick={() => setDialog({ type: 'add' })}
                testId="memory-add"
                className="flex items-center gap-1.5 rounded-full bg-primary px-4 py-2 text-sm font-semibold text-on-primary"
              >
                {t('memories.add')}
              </IconTextButton>
            </div>

            {single.data && !listed && (
              <section aria-label={t('memories.highlighted')} data-testid="memory-opened">
                {card(single.data)}
              </section>
            )}
            {highlightId && single.isError && (
              <p role="status" className="text-sm text-muted" data-testid="memory-opened-gone">
                {t('memories.not_found')}
              </p>
            )}

            {list.isPending ? (
              <PageSkeleton />
            ) : list.isError && !list.data ? (
              <LoadFailed
                text={t('memories.load_failed')}
                retryLabel={t('memories.try_again')}
                onRetry={() => void list.refetch()}
                className="py-10"
              />
            ) : nothingYet ? (
              <div className="flex flex-col items-center gap-2 py-10 text-center" data-testid="memories-empty">
                <p className="text-lg font-semibold">{t('memories.empty_title', { name })}</p>
                <p className="max-w-sm text-sm text-muted">{t('memories.empty_text')}</p>
              </div>
            ) : memories.length === 0 ? (
              <p className="py-6 text-center text-sm text-muted" role="status" data-testid="memories-no-match">
                {t('memories.no_match')}
              </p>
            ) : (
              <div
                className={`flex flex-col gap-6 ${list.isPlaceholderData ? 'opacity-60' : ''}`}
                data-testid="memories-list"
              >
                {groups.map(([kind, items]) => (
                  <section key={kind} aria-labelledby={`memories-${kind}`} data-testid={`memories-group-${kind}`}>
                    <h2
                      id={`memories-${kind}`}
                      className="mb-2 flex items-center gap-2 text-sm font-semibold text-muted"
                    >
                      <Icon icon={KIND_ICONS[kind]} size="sm" />
                      {t(`memories.kind.${kind}`, { name })}
                      <span className="font-normal tabular-nums">({Math.max(counts?.[kind] ?? 0, items.length)})</span>
                    </h2>
                    {kind === 'event' ? (
                      <ol
                        className="relative ml-2 flex flex-col gap-3 border-l border-white/15 pl-5"
                        data-testid="memories-timeline"
                      >
                        {items.map((memory) => (
                          <li key={memory.id} className="relative">
                            <span
                              className="absolute top-1.5 -left-[1.6rem] h-2.5 w-2.5 rounded-full border-2 border-bg bg-primary"
                              aria-hidden="true"
                            />
                            <time
                              dateTime={momentDay(memory)}
                              className="mb-1 block text-xs font-semibold text-primary"
                              data-testid="memory-day"
                            >
                              {formatDay(momentDay(memory), locale)}
                            </time>
                            {card(memory)}
                          </li>
                        ))}
                      </ol>
                    ) : (
                      <ul className="flex flex-col gap-2">
                        {items.map((memory) => (
                          <li key={memory.id}>{card(memory)}</li>
                        ))}
                      </ul>
                    )}
                  </section>
                ))}
                <ShowMore pages={list} />
              </div>
            )}

            {/* Not under a search's results: it forgets every memory, not the ones found. */}
            {list.isSuccess && !nothingYet && !search && !q && (
              <div className="mt-4 border-t border-white/10 pt-6">
                <button
                  type="button"
                  onClick={() => setDialog({ type: 'forget-all' })}
                  data-testid="memories-forget-all"
                  className="rounded-full border border-red-400/50 px-5 py-2 text-sm font-semibold text-red-300 hover:bg-red-400/10"
                >
                  {t('memories.forget_all')}
                </button>
              </div>
            )}
          </>
        )}
      </main>

      <MemoryFormDialog
        open={dialog?.type === 'add' || dialog?.type === 'edit'}
        name={name}
        memory={dialog?.type === 'edit' ? dialog.memory : null}
        onSubmit={submit}
        onClose={close}
      />
      <MemoryHistoryDialog
        viewer={viewer}
        name={name}
        memory={dialog?.type === 'history' ? dialog.memory : null}
        onClose={close}
      />
      <ConfirmDialog
        open={dialog?.type === 'forget'}
        title={t('memories.forget_title')}
        text={t('memories.forget_text', { name })}
        confirmLabel={t('memories.forget_confirm')}
        cancelLabel={t('memories.cancel')}
        pending={forget.isPending}
        onConfirm={() => void confirmForget()}
        onClose={close}
        testId="memory-forget-confirm"
      />
      <ConfirmDialog
        open={dialog?.type === 'forget-all'}
        title={t('memories.forget_all_title')}
        text={t('memories.forget_all_text', { name })}
        confirmLabel={t('memories.forget_all_confirm')}
        cancelLabel={t('memories.cancel')}
        pending={forgetAll.isPending}
        onConfirm={() => void confirmForgetAll()}
        onClose={close}
        testId="memories-forget-all-confirm"
      />
    </div>
  );
}
