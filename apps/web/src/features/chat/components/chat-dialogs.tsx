import '../texts';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Check } from 'lucide-react';
import { CHAT_TITLE_MAX, type Chat } from '@reverie/shared';
import { showAlert } from '../../../components/ui/alerts';
import { Icon } from '../../../components/ui/icon';
import { ConfirmDialog, type ConfirmHandlers } from '../../../components/ui/confirm-dialog';
import { ErrorAndCount } from '../../../components/ui/form-error';
import { Modal } from '../../../components/ui/modal';
import { DialogListState } from './dialog-list-state';
import { ApiRequestError } from '../../../lib/api-client';
import { formatRelative } from '../../../lib/format';
import { currentLocale, useTranslation } from '../../../lib/i18n';
import { chatPath } from '../api/chat-path';
import { useDeleteChat } from '../api/delete-chat';
import { useChats } from '../api/get-chats';
import { useUpdateChat } from '../api/update-chat';
import { chatPreview } from './chat-preview';
import {
  primaryButtonClass as primary,
  secondaryButtonClass as secondary,
} from '../../../components/ui/dialog-actions';

/** "New chat" asks first: the current chat is kept and stays in the history. */
export function NewChatDialog({
  open,
  name,
  pending,
  onConfirm,
  onClose,
}: { open: boolean; name: string } & ConfirmHandlers) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      open={open}
      title={t('chat.new_chat_title')}
      text={t('chat.new_chat_text', { name })}
      confirmLabel={t('chat.new_chat_confirm')}
      cancelLabel={t('chat.cancel')}
      tone="primary"
      pending={pending}
      onConfirm={onConfirm}
      onClose={onClose}
      testId="new-chat-confirm"
    />
  );
}

/** The field, mounted when the dialog opens so it starts from the chat's title. */
function RenameForm({ chat, viewer, onDone }: { chat: Chat; viewer: string; onDone: () => void }) {
  const { t } = useTranslation();
  const update = useUpdateChat(chat.id, viewer);
  const [value, setValue] = useState(chat.title ?? '');
  const [error, setError] = useState<string | null>(null);
  const trimmed = value.trim();

  const save = async (title: string | null) => {
    try {
      await update.mutateAsync({ title });
      showAlert(title === null ? t('chat.rename_cleared') : t('chat.renamed'));
      onDone();
    } catch (failure) {
      const field = failure instanceof ApiRequestError ? failure.fieldErrors?.title?.[0] : undefined;
      if (field) setError(field);
      else showAlert(t('chat.save_failed'), { type: 'error' });
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!trimmed) return setError(t('validation.required'));
    if (trimmed.length > CHAT_TITLE_MAX) return setError(t('validation.chat_title_max'));
    void save(trimmed);
  };

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-2">
      <label className="flex flex-col gap-1.5 text-sm">
        <span>{t('chat.rename_label')}</span>
        <input
          value={value}
          onChange={(event) => {
            setValue(event.target.value);
            setError(null);
          }}
          maxLength={CHAT_TITLE_MAX + 20}
          placeholder={chat.bot.name}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'chat-title-error' : undefined}
          data-testid="chat-title-field"
          className="rounded-xl border border-white/10 bg-bg px-3 py-2 focus:border-primary/60 focus:outline-none"
        />
      </label>
      <ErrorAndCount
        error={error}
        errorId="chat-title-error"
        count={t('chat.char_count', { used: trimmed.length, max: CHAT_TITLE_MAX })}
      />
      <div className="mt-3 flex flex-wrap justify-end gap-2">
        {chat.title !== null && (
          <button type="button" onClick={() => void save(null)} disabled={update.isPending} className={secondary}>
            {t('chat.rename_clear')}
          </button>
        )}
        <button type="submit" disabled={update.isPending} className={primary} data-testid="chat-title-save">
          {t('chat.save')}
        </button>
      </div>
    </form>
  );
}

/** Renames a chat (its title shows in the list and the header; empty goes back to the name). */
export function RenameChatDialog({
  chat,
  viewer,
  onClose,
}: {
  chat: Chat | null;
  viewer: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal open={chat !== null} onClose={onClose} title={t('chat.rename_title')} size="sm">
      {chat && <RenameForm key={chat.id} chat={chat} viewer={viewer} onDone={onClose} />}
    </Modal>
  );
}

/** Deletes a chat after asking: its messages, pictures and voice messages go too. */
export function DeleteChatDialog({
  chat,
  viewer,
  onClose,
  onDeleted,
}: {
  chat: Chat | null;
  viewer: string;
  onClose: () => void;
  onDeleted?: (chat: Chat) => void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteChat(viewer);
  const confirm = async () => {
    if (!chat) return;
    try {
      await remove.mutateAsync(chat.id);
      showAlert(t('chat.deleted'));
      onClose();
      onDeleted?.(chat);
    } catch (failure) {
      // Already gone (another tab): the lists have caught up, nothing is left to do.
      if (failure instanceof ApiRequestError && failure.status === 404) {
        onClose();
        onDeleted?.(chat);
      } else showAlert(t('chat.delete_failed'), { type: 'error' });
    }
  };
  const name = chat ? (chat.title ?? chat.bot.name) : '';
  return (
    <ConfirmDialog
      open={chat !== null}
      title={t('chat.delete_title')}
      text={t('chat.delete_text', { name })}
      confirmLabel={t('chat.delete_confirm')}
      cancelLabel={t('chat.cancel')}
      pending={remove.isPending}
      onConfirm={() => void confirm()}
      onClose={onClose}
      testId="delete-chat-confirm"
    >
      <p className="text-sm text-muted">{t('chat.story.delete_chat_branches')}</p>
    </ConfirmDialog>
  );
}

/** The chat menu's history: this character's chats, newest first; one tap opens a chat by its id. */
export function ChatHistoryDialog({
  open,
  current,
  viewer,
  onClose,
}: {
  open: boolean;
  current: Chat;
  viewer: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const chats = useChats(viewer, { botId: current.bot.id }, open);
  const locale = currentLocale();
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={t('chat.history_title')}
      description={t('chat.history_text', { name: current.bot.name })}
    >
      <DialogListState query={chats}>
        {(data) => (
          <ul className="flex flex-col gap-2" data-testid="chat-history" aria-label={t('chat.history_title')}>
            {data.map((chat) => {
              const here = chat.id === current.id;
              const when = chat.last_message?.created_at ?? chat.updated_at;
              const { text } = chatPreview(chat, t);
              return (
                <li key={chat.id}>
                  <Link
                    to={chatPath(chat)}
                    onClick={onClose}
                    aria-current={here ? 'page' : undefined}
                    data-testid="chat-history-row"
                    className={`flex items-center gap-3 rounded-xl border px-4 py-2.5 text-left text-sm ${
                      here ? 'border-primary bg-primary/10' : 'border-white/10 hover:bg-white/5'
                    }`}
                  >
                    <span className="flex min-w-0 flex-1 flex-col gap-0.5">
                      <span className="flex items-baseline justify-between gap-2">
                        <span className="truncate font-semibold">{chat.title ?? chat.bot.name}</span>
                        <time dateTime={when} className="shrink-0 text-xs text-muted">
                          {formatRelative(when, locale, Date.now(), 'short')}
                        </time>
                      </span>
                      <span className="truncate text-muted">{text}</span>
                    </span>
                    {here && (
                      <Icon
                        icon={Check}
                        size="md"
                        className="shrink-0 text-primary"
                        aria-label={t('chat.history_current')}
                      />
                    )}
                  </Link>
                </li>
              );
            })}
          </ul>
        )}
      </DialogListState>
    </Modal>
  );
}
