import '../texts';
import { useState, type FormEvent } from 'react';
import { GitBranch } from 'lucide-react';
import { MESSAGE_TEXT_MAX, type Chat, type ChatBranch, type Message } from '@reverie/shared';
import { Icon } from '../../../components/ui/icon';
import { ConfirmDialog, type ConfirmHandlers } from '../../../components/ui/confirm-dialog';
import { Modal } from '../../../components/ui/modal';
import { currentLocale, useTranslation } from '../../../lib/i18n';
import { formatRelative } from '../../../lib/format';
import { useBranches } from '../api/get-branches';
import { DialogListState } from './dialog-list-state';
import {
  primaryButtonClass as primary,
  secondaryButtonClass as secondary,
} from '../../../components/ui/dialog-actions';

/** "Save and regenerate": a button of its own, not the quiet look of Cancel beside it. */
const outlined =
  'rounded-full border border-white/15 px-4 py-2 text-sm font-medium hover:bg-white/5 disabled:opacity-50';

const buttonRow = 'mt-5 flex flex-wrap justify-end gap-2';

/** The field, mounted when the dialog opens so it starts from the message's text. */
function EditForm({
  message,
  canRegenerate,
  pending,
  onSave,
  onClose,
}: {
  message: Message;
  canRegenerate: boolean;
  pending: boolean;
  onSave: (text: string, regenerate: boolean) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState(message.text);
  const valid = text.trim().length > 0 && text.trim() !== message.text.trim();
  const save = (regenerate: boolean) => {
    if (valid && !pending) onSave(text.trim(), regenerate);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save(false);
  };
  return (
    <form onSubmit={submit}>
      <label className="flex flex-col gap-1.5">
        <span className="sr-only">{t('chat.story.edit_label')}</span>
        <textarea
          value={text}
          onChange={(event) => setText(event.target.value.slice(0, MESSAGE_TEXT_MAX))}
          maxLength={MESSAGE_TEXT_MAX}
          rows={6}
          autoFocus
          data-testid="edit-message-field"
          className="w-full resize-y rounded-2xl border border-white/10 bg-bg px-4 py-3 text-[0.95rem] leading-relaxed focus:border-primary/60 focus:outline-none"
        />
      </label>
      {message.role === 'bot' && message.reply_to && (
        <p className="mt-2 text-xs text-muted">{t('chat.story.rewrite_note')}</p>
      )}
      <div className={buttonRow}>
        <button type="button" onClick={onClose} className={secondary}>
          {t('chat.cancel')}
        </button>
        {canRegenerate && (
          <button
            type="button"
            disabled={!valid || pending}
            onClick={() => save(true)}
            className={outlined}
            data-testid="edit-save-regenerate"
          >
            {t('chat.story.save_regenerate')}
          </button>
        )}
        <button type="submit" disabled={!valid || pending} className={primary} data-testid="edit-save">
          {canRegenerate ? t('chat.story.save_keep') : t('chat.story.save')}
        </button>
      </div>
    </form>
  );
}

/**
 * Editing a message: the user's own (save, or save and regenerate the reply to it) or the
 * character's (saved as a new alternative; the original stays as a swipe).
 */
export function EditMessageDialog({
  message,
  canRegenerate,
  pending,
  onSave,
  onClose,
}: {
  message: Message | null;
  /** The message has the newest reply: "Save and regenerate" writes a new one. */
  canRegenerate: boolean;
  pending: boolean;
  onSave: (text: string, regenerate: boolean) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={message !== null}
      onClose={onClose}
      title={message?.role === 'user' ? t('chat.story.edit_title') : t('chat.story.rewrite_title')}
    >
      {message && (
        <EditForm
          key={message.id}
          message={message}
          canRegenerate={canRegenerate}
          pending={pending}
          onSave={onSave}
          onClose={onClose}
        />
      )}
    </Modal>
  );
}

/** Asks before deleting a message, or it and everything after it. */
export function DeleteMessageDialog({
  target,
  pending,
  onConfirm,
  onClose,
}: { target: { message: Message; from: boolean; after: number | null } | null } & ConfirmHandlers) {
  const { t } = useTranslation();
  // How many follow is known only when the loaded messages reach the newest one.
  const text = !target?.from
    ? t('chat.story.delete_text')
    : target.after === null
      ? t('chat.story.delete_from_text_all')
      : target.after === 0
        ? t('chat.story.delete_text')
        : t('chat.story.delete_from_text', { count: target.after });
  return (
    <ConfirmDialog
      open={target !== null}
      title={target?.from ? t('chat.story.delete_from_title') : t('chat.story.delete_title')}
      text={text}
      confirmLabel={t('chat.story.delete_confirm')}
      cancelLabel={t('chat.cancel')}
      pending={pending}
      onConfirm={onConfirm}
      onClose={onClose}
      testId="delete-message-confirm"
    />
  );
}

/** The tree's chats in order: each after its parent, with its depth. */
export function treeOrder(chats: ChatBranch[]): { branch: ChatBranch; depth: number }[] {
  const children = new Map<string | null, ChatBranch[]>();
  const ids = new Set(chats.map((c) => c.id));
  for (const chat of chats) {
    const parent = chat.parent_chat_id && ids.has(chat.parent_chat_id) ? chat.parent_chat_id : null;
    children.set(parent, [...(children.get(parent) ?? []), chat]);
  }
  const out: { branch: ChatBranch; depth: number }[] = [];
  const walk = (parent: string | null, depth: number) => {
    for (const chat of children.get(parent) ?? []) {
      out.push({ branch: chat, depth });
      walk(chat.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

/**
 * The number of each branch of the tree (not its root), in the order they were made: an untitled
 * branch is "Branch 2" rather than one more "Branch" beside the others.
 */
export function branchNumbers(chats: ChatBranch[]): Map<string, number> {
  const ids = new Set(chats.map((c) => c.id));
  const branches = chats
    .filter((c) => c.parent_chat_id && ids.has(c.parent_chat_id))
    .sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
  return new Map(branches.map((c, i) => [c.id, i + 1]));
}

/** The branch switcher: the chat's tree (name, date, message count); a tap opens a branch. */
export function BranchesDialog({
  open,
  current,
  onOpen,
  onClose,
}: {
  open: boolean;
  current: Chat;
  onOpen: (chatId: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const tree = useBranches(current.id, open);
  return (
    <Modal open={open} onClose={onClose} title={t('chat.story.branches_title')}>
      <DialogListState query={tree}>
        {(data) => {
          const numbers = branchNumbers(data.chats);
          return (
            <ul className="flex flex-col gap-1" data-testid="branch-tree">
              {treeOrder(data.chats).map(({ branch, depth }) => {
                const isCurrent = branch.id === current.id;
                const number = numbers.get(branch.id);
                return (
                  <li key={branch.id} style={{ paddingLeft: `${Math.min(depth, 6)}rem` }}>
                    <button
                      type="button"
                      onClick={() => (isCurrent ? onClose() : onOpen(branch.id))}
                      aria-current={isCurrent ? 'true' : undefined}
                      data-testid="branch-row"
                      className={`flex w-full items-center gap-3 rounded-2xl px-3 py-2.5 text-left hover:bg-white/10 ${
                        isCurrent ? 'bg-white/10' : ''
                      }`}
                    >
                      <Icon icon={GitBranch} size="sm" className="shrink-0 text-muted" />
                      <span className="flex min-w-0 flex-1 flex-col">
                        <span className="truncate text-sm font-semibold">
                          {branch.title ??
                            (depth === 0
                              ? t('chat.story.main_story')
                              : number
                                ? t('chat.story.branch_numbered', { number })
                                : t('chat.story.branch_name'))}
                        </span>
                        <span className="text-xs text-muted">
                          {t('chat.story.branch_meta', {
                            date: formatRelative(branch.created_at, currentLocale()),
                            count: branch.message_count,
                          })}
                        </span>
                      </span>
                      {isCurrent && <span className="text-xs text-primary">{t('chat.story.current')}</span>}
                    </button>
                  </li>
                );
              })}
            </ul>
          );
        }}
      </DialogListState>
    </Modal>
  );
}
