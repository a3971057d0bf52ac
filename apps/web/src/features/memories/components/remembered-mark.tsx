import '../texts';
import { useState } from 'react';
import { Link } from 'react-router';
import { Brain, Sparkles } from 'lucide-react';
import type { Memory, MessageMemories } from '@reverie/shared';
import { Icon } from '../../../components/ui/icon';
import { LoadFailed } from '../../../components/ui/load-failed';
import { Modal } from '../../../components/ui/modal';
import { Skeleton } from '../../../components/ui/page';
import { ApiRequestError } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n';
import { useMemoriesById } from '../api/get-memory';
import { memoriesPath } from '../memories-path';
import { KIND_ICONS } from './kinds';

/** The memories of one reply, read when the sheet opens: those it drew on first. */
function MarkList({
  viewer,
  slug,
  name,
  memories,
  onOpen,
}: {
  viewer: string;
  slug: string;
  name: string;
  memories: MessageMemories;
  onOpen: () => void;
}) {
  const { t } = useTranslation();
  const drewOn = new Set(memories.drew_on);
  const ids = [
    ...memories.in_prompt.filter((id) => drewOn.has(id)),
    ...memories.in_prompt.filter((id) => !drewOn.has(id)),
  ];
  const queries = useMemoriesById(viewer, ids, true);
  // A memory forgotten since the reply (404) is simply not listed.
  const gone = (error: unknown) => error instanceof ApiRequestError && error.status === 404;
  const failed = queries.some((query) => query.isError && !gone(query.error));
  const loaded = queries.map((query) => query.data).filter((memory): memory is Memory => Boolean(memory));
  const pending = queries.some((query) => query.isPending && query.fetchStatus !== 'idle');

  if (pending && loaded.length === 0) {
    return (
      <div className="flex flex-col gap-2" aria-busy="true">
        <Skeleton className="h-12 w-full" />
        <Skeleton className="h-12 w-full" />
      </div>
    );
  }
  if (failed && loaded.length === 0) {
    return (
      <LoadFailed
        text={t('memories.load_failed')}
        retryLabel={t('memories.try_again')}
        onRetry={() => queries.forEach((query) => query.isError && void query.refetch())}
      />
    );
  }
  return (
    <div className="flex flex-col gap-3">
      {loaded.length === 0 ? (
        <p className="text-sm text-muted" role="status">
          {t('memories.mark_gone')}
        </p>
      ) : (
        <ul className="flex flex-col gap-2" data-testid="remembered-list">
          {loaded.map((memory) => {
            const used = drewOn.has(memory.id);
            return (
              <li key={memory.id}>
                <Link
                  to={memoriesPath(slug, memory.id)}
                  onClick={onOpen}
                  data-testid="remembered-memory"
                  data-drew-on={used || undefined}
                  className={`flex items-start gap-3 rounded-xl border px-3 py-2.5 text-sm hover:bg-white/5 ${
                    used ? 'border-primary/60 bg-primary/10' : 'border-white/10'
                  }`}
                >
                  <Icon icon={KIND_ICONS[memory.kind]} size="sm" className="mt-0.5 shrink-0 text-muted" />
                  <span className="min-w-0 flex-1">
                    <span className="block break-words">{memory.text}</span>
                    {used && (
                      <span className="mt-1 flex items-center gap-1 text-xs font-semibold text-primary">
                        <Icon icon={Sparkles} size="sm" className="h-3 w-3" />
                        {t('memories.mark_drew_on')}
                      </span>
                    )}
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
      <Link
        to={memoriesPath(slug)}
        onClick={onOpen}
        className="self-start text-sm font-semibold text-primary hover:underline"
        data-testid="remembered-all"
      >
        {t('memories.mark_all', { name })}
      </Link>
    </div>
  );
}

/**
 * "Remembered": under a character's reply whose prompt held memories, a small mark; tapping
 * it lists them (a sheet on phones), those the reply drew on highlighted, each opening on the
 * memory page. Nothing for a reply without memories.
 */
export function RememberedMark({
  memories,
  viewer,
  slug,
  name,
}: {
  memories: MessageMemories | undefined;
  viewer: string;
  /** The character's slug and name. */
  slug: string;
  name: string;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (!memories || memories.in_prompt.length === 0) return null;
  const count = memories.in_prompt.length;
  const drew = memories.drew_on.length > 0;
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-label={t('memories.mark_label', { count })}
        title={t('memories.mark_label', { count })}
        data-testid="remembered-mark"
        data-drew-on={drew || undefined}
        className={`flex items-center gap-1 rounded-full px-2 py-1 text-xs hover:bg-white/10 ${drew ? 'text-primary' : 'text-muted hover:text-fg'}`}
      >
        <Icon icon={Brain} size="sm" className="h-3.5 w-3.5" />
        <span>{t('memories.mark')}</span>
        <span className="tabular-nums">{count}</span>
      </button>
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        title={t('memories.mark_title', { name })}
        description={t('memories.mark_text', { name })}
      >
        {open && <MarkList viewer={viewer} slug={slug} name={name} memories={memories} onOpen={() => setOpen(false)} />}
      </Modal>
    </>
  );
}
