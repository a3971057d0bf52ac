import '../texts';
import { useState } from 'react';
import { Link } from 'react-router';
import { LOREBOOKS_PER_CHAT_MAX, type ChatLorebooks, type PromptTrace, type PromptTraceLore } from '@reverie/shared';
import { showAlert } from '../../../components/ui/alerts';
import { Modal } from '../../../components/ui/modal';
import { Skeleton } from '../../../components/ui/page';
import { CheckboxRow } from '../../../components/ui/switch-row';
import { ApiRequestError, toApiRequestError } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n';
import { useChatLorebooks, useSetChatLorebooks } from '../api/chat-lorebooks';
import { usePromptTrace } from '../api/get-prompt-trace';
import { CancelSaveButtons } from './chat-text-editor';
import type { MessageDialogProps } from './message-dialog';

/** The chooser, mounted once the chat's books are loaded so it starts from the saved choice. */
function ChatLorebooksChooser({
  chatId,
  books,
  onDone,
}: {
  chatId: string;
  books: ChatLorebooks['books'];
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const save = useSetChatLorebooks(chatId);
  const [picked, setPicked] = useState(() => new Set(books.filter((b) => b.attached).map((b) => b.id)));
  const toggle = (id: string, on: boolean) =>
    setPicked((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const onSave = async () => {
    try {
      await save.mutateAsync([...picked]);
      showAlert(t('chat.lore.saved'));
      onDone();
    } catch (failure) {
      showAlert(toApiRequestError(failure).message, { type: 'error' });
    }
  };
  return (
    <div className="flex flex-col gap-4">
      {books.length === 0 ? (
        <p className="text-sm text-muted">{t('chat.lore.none')}</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {books.map((book) => (
            <li key={book.id}>
              <CheckboxRow
                checked={book.global || picked.has(book.id)}
                disabled={book.global || (!picked.has(book.id) && picked.size >= LOREBOOKS_PER_CHAT_MAX)}
                onChange={(checked) => toggle(book.id, checked)}
                className="flex items-start gap-3 rounded-xl border border-white/10 p-3 text-sm"
                testId="chat-lorebook-toggle"
              >
                <span className="min-w-0">
                  <span className="block truncate font-medium">{book.name}</span>
                  <span className="block text-xs text-muted">
                    {book.global ? t('chat.lore.global') : t('chat.lore.entries', { count: book.entry_count })}
                  </span>
                </span>
              </CheckboxRow>
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Link
          to="/lorebooks"
          className="text-sm text-primary underline-offset-2 hover:underline"
          data-testid="chat-lorebooks-manage"
        >
          {t('chat.lore.manage')}
        </Link>
        <CancelSaveButtons
          className="flex gap-2"
          onCancel={onDone}
          onSave={onSave}
          disabled={save.isPending}
          testId="chat-lorebooks-save"
        />
      </div>
    </div>
  );
}

/** The chat's lorebooks (docs/lorebooks.md): which of the user's books this chat uses, besides the global ones. */
export function ChatLorebooksDialog({ chatId, open, onClose }: { chatId: string; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const books = useChatLorebooks(chatId, open);
  return (
    <Modal open={open} onClose={onClose} title={t('chat.lore.title')} description={t('chat.lore.text')} size="lg">
      {books.isPending ? (
        <Skeleton className="h-32 w-full" />
      ) : books.isError ? (
        <p role="alert" className="text-sm text-red-300">
          {t('chat.load_failed')}
        </p>
      ) : (
        <ChatLorebooksChooser key={books.dataUpdatedAt} chatId={chatId} books={books.data.books} onDone={onClose} />
      )}
    </Modal>
  );
}

/** Why an entry fired: its key (and secondary key), or constant; its roll when it had a chance. */
function LoreLine({ lore }: { lore: PromptTraceLore }) {
  const { t } = useTranslation();
  const why = lore.constant
    ? t('chat.trace.constant')
    : lore.secondary_key
      ? t('chat.trace.keys', { key: lore.key ?? '', secondary: lore.secondary_key })
      : t('chat.trace.key', { key: lore.key ?? '' });
  const roll =
    lore.roll === null ? null : t('chat.trace.roll', { roll: Math.floor(lore.roll), chance: lore.probability });
  // Where an included entry went: the author reads why it fired and where the model saw it.
  const where = lore.status === 'inserted' ? t(`chat.trace.where_${lore.position}`, { depth: lore.depth }) : null;
  return (
    <li className="rounded-xl border border-white/10 p-3 text-sm" data-testid="trace-lore">
      <div className="flex items-start justify-between gap-2">
        <span className="min-w-0">
          <span className="block truncate font-medium">{lore.label || t('chat.trace.untitled')}</span>
          <span className="block truncate text-xs text-muted">{lore.book_name}</span>
        </span>
        <span
          className={`shrink-0 rounded-full px-2 py-0.5 text-[0.7rem] ${
            lore.status === 'inserted' ? 'bg-emerald-500/15 text-emerald-200' : 'bg-white/10 text-muted'
          }`}
          data-testid="trace-lore-status"
        >
          {t(`chat.trace.status_${lore.status}`)}
        </span>
      </div>
      <p className="mt-1 text-xs text-muted">
        {why}
        {roll ? ` · ${roll}` : ''}
        {where ? ` · ${where}` : ''}
      </p>
    </li>
  );
}

function TraceBody({ trace }: { trace: PromptTrace }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-4" data-testid="prompt-trace">
      <section className="flex flex-col gap-2">
        <h3 className="text-sm font-semibold">{t('chat.trace.lore')}</h3>
        {trace.lore.length === 0 ? (
          <p className="text-sm text-muted">{t('chat.trace.no_lore')}</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {trace.lore.map((lore) => (
              <LoreLine key={`${lore.book_id}:${lore.entry_id}`} lore={lore} />
            ))}
          </ul>
        )}
        {trace.lore_omitted > 0 && (
          <p className="text-sm text-muted" data-testid="trace-lore-omitted">
            {t('chat.trace.lore_omitted', { count: trace.lore_omitted })}
          </p>
        )}
      </section>
      <section className="flex flex-col gap-1 text-sm">
        <h3 className="font-semibold">{t('chat.trace.author_note')}</h3>
        {trace.author_note ? (
          <p className="whitespace-pre-wrap text-muted">
            {t('chat.trace.author_note_at', { depth: trace.author_note.depth })} {trace.author_note.text}
          </p>
        ) : (
          <p className="text-muted">{t('chat.trace.no_author_note')}</p>
        )}
      </section>
      <ul className="flex flex-col gap-1 text-sm text-muted">
        <li>{t('chat.trace.memories', { count: trace.memories })}</li>
        <li>{trace.summary ? t('chat.trace.summary_yes') : t('chat.trace.summary_no')}</li>
        <li>{t('chat.trace.history', { count: trace.history_messages })}</li>
      </ul>
    </div>
  );
}

/** "What went into the prompt" of the last reply (docs/lorebooks.md): lore that fired and why, the note, memories. */
export function PromptTraceDialog({ chatId, messageId, onClose }: MessageDialogProps) {
  const { t } = useTranslation();
  const trace = usePromptTrace(chatId, messageId);
  const missing = trace.error instanceof ApiRequestError && trace.error.status === 404;
  return (
    <Modal
      open={messageId !== null}
      onClose={onClose}
      title={t('chat.trace.title')}
      description={t('chat.trace.text')}
      size="lg"
    >
      {trace.isPending ? (
        <Skeleton className="h-40 w-full" />
      ) : trace.isError ? (
        <p role={missing ? undefined : 'alert'} className={`text-sm ${missing ? 'text-muted' : 'text-red-300'}`}>
          {missing ? t('chat.trace.missing') : t('chat.load_failed')}
        </p>
      ) : (
        <TraceBody trace={trace.data} />
      )}
    </Modal>
  );
}
