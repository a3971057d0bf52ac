import '../texts';
import { useState } from 'react';
import { Link } from 'react-router';
import { CHAT_MEMORY_MAX } from '@reverie/shared';
import { Modal } from '../../../components/ui/modal';
import { Skeleton } from '../../../components/ui/page';
import { currentLocale, useTranslation } from '../../../lib/i18n';
import { formatDate } from '../../../lib/format';
import { useChatMemory } from '../api/get-memory';
import { useUpdateChatMemory } from '../api/update-memory';
import { CancelSaveButtons, DialogTextArea, useSaveAndClose } from './chat-text-editor';
import { DialogListState } from './dialog-list-state';

/** The editor, mounted once the memory is loaded so it starts from the saved text. */
function MemoryEditor({ chatId, initial, onDone }: { chatId: string; initial: string; onDone: () => void }) {
  const { t } = useTranslation();
  const save = useUpdateChatMemory(chatId);
  const [text, setText] = useState(initial);
  const onSave = useSaveAndClose(() => save.mutateAsync(text), t('chat.memories_saved'), onDone);
  return (
    <div className="flex flex-col gap-3">
      <label className="flex flex-col gap-1.5 text-sm">
        <span className="sr-only">{t('chat.memories_title')}</span>
        <DialogTextArea
          value={text}
          onChange={setText}
          max={CHAT_MEMORY_MAX}
          rows={10}
          placeholder={t('chat.memories_empty')}
          testId="memories-field"
          minHeight="min-h-48"
        />
      </label>
      <div className="flex items-center justify-between gap-2">
        <span className="text-xs text-muted tabular-nums">
          {t('chat.char_count', { used: text.length, max: CHAT_MEMORY_MAX })}
        </span>
        <CancelSaveButtons
          className="flex gap-2"
          onCancel={onDone}
          onSave={onSave}
          disabled={save.isPending || text === initial}
        />
      </div>
    </div>
  );
}

/**
 * The chat's short-term summary (the menu's "Chat summary"): what the character keeps in mind
 * of this chat's older messages, readable and editable. Long-term memories, shared by all the
 * user's chats with the character, are the memory page (`memoriesHref`).
 */
export function MemoriesDialog({
  chatId,
  name,
  memoriesHref,
  open,
  onClose,
}: {
  chatId: string;
  /** The character's name. */
  name: string;
  /** The memory page of this character, linked from the dialog; no link without it. */
  memoriesHref?: string;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const memory = useChatMemory(chatId, open);
  const updated = memory.data?.updated_at ? formatDate(memory.data.updated_at, currentLocale()) : null;
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={t('chat.memories_title')}
      description={updated ? t('chat.memories_updated', { date: updated, name }) : t('chat.memories_text', { name })}
      size="lg"
    >
      {memoriesHref && (
        <Link
          to={memoriesHref}
          onClick={onClose}
          data-testid="summary-memories-link"
          className="mb-3 inline-block text-sm font-semibold text-primary hover:underline"
        >
          {t('chat.memories_open_page', { name })}
        </Link>
      )}
      <DialogListState query={memory} skeleton={<Skeleton className="h-48 w-full" />}>
        {(saved) => (
          <MemoryEditor key={saved.updated_at ?? 'new'} chatId={chatId} initial={saved.memory} onDone={onClose} />
        )}
      </DialogListState>
    </Modal>
  );
}
