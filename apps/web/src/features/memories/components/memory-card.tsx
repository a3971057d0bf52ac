import '../texts';
import { forwardRef } from 'react';
import { History, Pencil, Pin, Trash2 } from 'lucide-react';
import type { Memory } from '@reverie/shared';
import { Icon } from '../../../components/ui/icon';
import { MenuButton } from '../../../components/ui/menu-button';
import { formatDate } from '../../../lib/format';
import { currentLocale, useTranslation } from '../../../lib/i18n';

export interface MemoryActions {
  onEdit: (memory: Memory) => void;
  onTogglePin: (memory: Memory) => void;
  onHistory: (memory: Memory) => void;
  onForget: (memory: Memory) => void;
}

/** When it was remembered or last updated (a correction, a pin), and whether the user wrote it. */
function MemoryMeta({ memory }: { memory: Memory }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const updated = memory.updated_at !== memory.created_at;
  const when = updated
    ? t('memories.corrected_on', { date: formatDate(memory.updated_at, locale) })
    : t('memories.remembered_on', { date: formatDate(memory.created_at, locale) });
  return (
    <p className="mt-1 text-xs text-muted">
      {/* One piece: "updated Nov 29, 2026" never breaks inside its date on a narrow card. */}
      <time
        dateTime={updated ? memory.updated_at : memory.created_at}
        className="whitespace-nowrap"
        data-testid="memory-when"
      >
        {when}
      </time>
      {memory.origin === 'user' && <span className="whitespace-nowrap"> · {t('memories.added_by_you')}</span>}
    </p>
  );
}

/**
 * One memory: its text, when it was remembered or corrected, a pin (pinned ones are always in
 * the character's mind) and a menu to correct it, see its history or forget it.
 */
export const MemoryCard = forwardRef<
  HTMLDivElement,
  { memory: Memory; name: string; highlighted: boolean; actions: MemoryActions; pending: boolean }
>(function MemoryCard({ memory, name, highlighted, actions, pending }, ref) {
  const { t } = useTranslation();
  return (
    <div
      ref={ref}
      tabIndex={highlighted ? -1 : undefined}
      aria-label={highlighted ? t('memories.highlighted') : undefined}
      data-testid="memory"
      data-id={memory.id}
      data-pinned={memory.pinned || undefined}
      data-highlighted={highlighted || undefined}
      className={`flex items-start gap-1 rounded-2xl border px-4 py-3 transition-colors ${
        highlighted ? 'border-primary bg-primary/10 ring-2 ring-primary/40' : 'border-white/10 bg-surface'
      }`}
    >
      <div className="min-w-0 flex-1">
        <p className="break-words whitespace-pre-wrap" data-testid="memory-text">
          {memory.text}
        </p>
        <MemoryMeta memory={memory} />
      </div>
      <button
        type="button"
        onClick={() => actions.onTogglePin(memory)}
        disabled={pending}
        aria-pressed={memory.pinned}
        aria-label={memory.pinned ? t('memories.unpin') : t('memories.pin')}
        title={memory.pinned ? t('memories.pinned_hint', { name }) : t('memories.pin')}
        data-testid="memory-pin"
        className={`-mt-1 rounded-full p-2.5 hover:bg-white/10 disabled:opacity-50 ${memory.pinned ? 'text-primary' : 'text-muted hover:text-fg'}`}
      >
        <Icon icon={Pin} size="sm" className={memory.pinned ? 'fill-current' : ''} />
      </button>
      <div className="-mt-1 -mr-2">
        <MenuButton
          label={t('memories.actions')}
          testId="memory-menu"
          items={[
            { id: 'edit', label: t('memories.edit'), icon: Pencil, onSelect: () => actions.onEdit(memory) },
            { id: 'history', label: t('memories.history'), icon: History, onSelect: () => actions.onHistory(memory) },
            { id: 'forget', label: t('memories.forget'), icon: Trash2, onSelect: () => actions.onForget(memory) },
          ]}
        />
      </div>
    </div>
  );
});
