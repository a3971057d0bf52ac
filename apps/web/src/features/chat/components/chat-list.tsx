import '../texts';
import { useState } from 'react';
import { Link } from 'react-router';
import { Compass, ImageIcon, MessageCircle, Pencil, Trash2 } from 'lucide-react';
import type { Chat } from '@reverie/shared';
import { Icon } from '../../../components/ui/icon';
import { Skeleton } from '../../../components/ui/page';
import { MenuButton } from '../../../components/ui/menu-button';
import { formatRelative } from '../../../lib/format';
import { currentLocale, useTranslation } from '../../../lib/i18n';
import { chatPath } from '../api/chat-path';
import { DeleteChatDialog, RenameChatDialog } from './chat-dialogs';
import { chatPreview } from './chat-preview';

/** A row's menu: rename, delete. */
function RowMenu({ chat, onRename, onDelete }: { chat: Chat; onRename: () => void; onDelete: () => void }) {
  const { t } = useTranslation();
  return (
    <MenuButton
      label={t('chats.row_menu', { name: chat.title ?? chat.bot.name })}
      items={[
        { id: 'rename', label: t('chat.rename'), icon: Pencil, onSelect: onRename },
        { id: 'delete', label: t('chat.delete'), icon: Trash2, onSelect: onDelete },
      ]}
      testId="chat-row-menu"
      itemTestIdPrefix="chat-row"
      minWidth="min-w-44"
    />
  );
}

function ChatRow({ chat, onRename, onDelete }: { chat: Chat; onRename: () => void; onDelete: () => void }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const when = chat.last_message?.created_at ?? chat.updated_at;
  const { text, picture } = chatPreview(chat, t);
  return (
    <li className="flex items-center gap-1">
      <Link
        to={chatPath(chat)}
        data-testid="chat-row"
        className="flex min-w-0 flex-1 items-center gap-3 rounded-2xl px-3 py-3 hover:bg-white/5 focus-visible:bg-white/5"
      >
        {chat.bot.avatar_url ? (
          <img src={chat.bot.avatar_url} alt="" className="h-14 w-14 shrink-0 rounded-full object-cover" />
        ) : (
          <span className="h-14 w-14 shrink-0 rounded-full bg-surface" aria-hidden="true" />
        )}
        <span className="flex min-w-0 flex-1 flex-col gap-0.5">
          <span className="flex items-baseline justify-between gap-2">
            <span className="truncate font-semibold" data-testid="chat-row-name">
              {chat.title ?? chat.bot.name}
            </span>
            <time dateTime={when} className="shrink-0 text-xs text-muted">
              {formatRelative(when, locale, Date.now(), 'short')}
            </time>
          </span>
          {chat.title && (
            <span className="truncate text-xs text-muted" data-testid="chat-row-character">
              {chat.bot.name}
            </span>
          )}
          <span className="flex items-center gap-1 truncate text-sm text-muted">
            {picture && <Icon icon={ImageIcon} size="sm" className="shrink-0" />}
            <span className="truncate" data-testid="chat-row-preview">
              {text}
            </span>
          </span>
        </span>
      </Link>
      <RowMenu chat={chat} onRename={onRename} onDelete={onDelete} />
    </li>
  );
}

/**
 * The user's chats, newest activity first, each opening that chat by its id; each row's menu
 * renames or deletes it. `searching`: the list answers a search (no empty state then).
 */
export function ChatList({ chats, viewer, searching = false }: { chats: Chat[]; viewer: string; searching?: boolean }) {
  const { t } = useTranslation();
  const [renaming, setRenaming] = useState<Chat | null>(null);
  const [deleting, setDeleting] = useState<Chat | null>(null);
  if (!chats.length && searching) {
    return (
      <p className="py-12 text-center text-muted" data-testid="chats-no-results">
        {t('chats.no_results')}
      </p>
    );
  }
  if (!chats.length) {
    return (
      <div
        className="flex flex-col items-center gap-3 rounded-3xl border border-white/10 bg-surface/60 px-6 py-12 text-center"
        data-testid="chats-empty"
      >
        <Icon icon={MessageCircle} size="xxl" className="text-primary" />
        <p className="text-lg font-semibold">{t('chats.empty_title')}</p>
        <p className="max-w-sm text-sm text-muted">{t('chats.empty_text')}</p>
        <Link
          to="/"
          className="mt-2 flex items-center gap-2 rounded-full bg-primary px-5 py-2.5 font-semibold text-on-primary shadow-lg shadow-primary/30 hover:brightness-110"
        >
          <Icon icon={Compass} size="md" />
          {t('chats.explore')}
        </Link>
      </div>
    );
  }
  return (
    <>
      <ul className="-mx-3 flex flex-col" aria-label={t('chats.list_label')} data-testid="chat-list">
        {chats.map((chat) => (
          <ChatRow key={chat.id} chat={chat} onRename={() => setRenaming(chat)} onDelete={() => setDeleting(chat)} />
        ))}
      </ul>
      <RenameChatDialog chat={renaming} viewer={viewer} onClose={() => setRenaming(null)} />
      <DeleteChatDialog chat={deleting} viewer={viewer} onClose={() => setDeleting(null)} />
    </>
  );
}

export function ChatListSkeleton() {
  return (
    <ul className="flex flex-col gap-4" aria-busy="true" data-testid="chats-skeleton">
      {[0, 1, 2, 3, 4].map((i) => (
        <li key={i} className="flex items-center gap-3">
          <Skeleton className="h-14 w-14 shrink-0 rounded-full" />
          <div className="flex flex-1 flex-col gap-2">
            <Skeleton className="h-4 w-1/3" />
            <Skeleton className="h-3 w-2/3" />
          </div>
        </li>
      ))}
    </ul>
  );
}
