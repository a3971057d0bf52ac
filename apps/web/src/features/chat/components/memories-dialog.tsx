import '../texts';
import { useState } from 'react';
import { CHAT_MEMORY_MAX } from '@reverie/shared';
import { showAlert } from '../../../components/ui/alerts';
import { Modal } from '../../../components/ui/modal';
import { Skeleton } from '../../../components/ui/page';
import { currentLocale, useTranslation } from '../../../lib/i18n';
import { formatDate } from '../../../lib/format';
import { useChatMemory } from '../api/get-memory';
import { useUpdateChatMemory } from '../api/update-memory';

/** The editor, mounted once the memory is loaded so it starts from the saved text. */
function MemoryEditor({ chatId, initial, onDone }: { chatId: string; initial: string; onDone: () => void }) {
  const { t } = useTranslation();
  const save = useUpdateChatMemory(chatId);
  const [text, setText] = useState(initial);
  const onSave = async () => {
    try {
      await save.mutateAsync(text);
      showAlert(t('chat.memories_saved'));
      onDone();
    } catch {
      showAlert(t('chat.save_failed'), { type: 'error' });
    }
  };
  return (
    <div className="flex flex-col gap-3">
      <label className="flex flex-col gap-1.5 text-sm">
        <span className="sr-only">{t('chat.memories_title')}</span>
        <textarea
          value={text}
          onChange={(event) => setText(event.target.value)}
          maxLength={CHAT_MEMORY_MAX}
          rows={10}
          placeholder={t('chat.memories_empty')}
          data-testid="memories-field"
          className="min-h-48 resize-y rounded-xl border border-white/10 bg-bg px-3 py-2 leading-relaxed focus:border-primary/60 focus:outline-none"
        />
      </label>
      <div className="flex items-center justify-between gap-2">
        <span className="text-xs text-muted tabular-nums">
          {t('chat.char_count', { used: text.length, max: CHAT_MEMORY_MAX })}
        </span>
        <div className="flex gap-2">
          <button type="button" onClick={onDone} className="rounded-full px-4 py-2 text-sm text-muted hover:text-fg">
            {t('chat.cancel')}
          </button>
          <button
            type="button"
            onClick={() => void onSave()}
            disabled={save.isPending || text === initial}
            className="rounded-full bg-primary px-5 py-2 text-sm font-semibold text-on-primary disabled:opacity-50"
          >
            {t('chat.save')}
          </button>
        </div>
      </div>
    </div>
  );
}

/** The Memories panel: what the character remembers of older messages, readable and editable. */
export function MemoriesDialog({ chatId, open, onClose }: { chatId: string; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const memory = useChatMemory(chatId, open);
  const updated = memory.data?.updated_at ? formatDate(memory.data.updated_at, currentLocale()) : null;
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={t('chat.memories_title')}
      description={updated ? t('chat.memories_updated', { date: updated }) : t('chat.memories_text')}
      size="lg"
    >
      {memory.isPending ? (
        <Skeleton className="h-48 w-full" />
      ) : memory.isError ? (
        <p role="alert" className="text-sm text-red-300">
          {t('chat.load_failed')}
        </p>
      ) : (
        <MemoryEditor
          key={memory.data.updated_at ?? 'new'}
          chatId={chatId}
          initial={memory.data.memory}
          onDone={onClose}
        />
      )}
    </Modal>
  );
}
