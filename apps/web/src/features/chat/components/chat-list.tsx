import '../texts';
import { useState } from 'react';
import { Link } from 'react-router';
import { Compass, GitBranch, ImageIcon, MessageCircle, Pencil, Trash2 } from 'lucide-react';
import type { Chat } from '@reverie/shared';
import { Icon } from '../../../components/ui/icon';
import { UnreadBadge } from '../../../components/ui/unread-badge';
import { Skeleton } from '../../../components/ui/page';
import { MenuButton } from '../../../components/ui/menu-button';
import { formatRelative } from '../../../lib/format';
import { currentLocale, useTranslation } from '../../../lib/i18n';
import { chatPath } from '../api/chat-path';
import { DeleteChatDialog, RenameChatDialog } from './chat-dialogs';
import { chatPreview } from './chat-preview';
import { StackedFaces, groupName } from './stacked-faces';

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

const activity = (chat: Chat) => Date.parse(chat.last_message?.created_at ?? chat.updated_at) || 0;

/**
 * The list's rows with each branch under the first chat of its tree (docs/chat.md "Branches"):
 * a tree takes the place of its most recently active chat; a branch whose root is not in the
 * list (a search) is a row of its own.
 */
export function groupBranches(chats: Chat[]): { chat: Chat; branch: boolean }[] {
  const ids = new Set(chats.map((c) => c.id));
  const branches = new Map<string, Chat[]>();
  for (const chat of chats)
    if (chat.root_chat_id && ids.has(chat.root_chat_id))
      branches.set(chat.root_chat_id, [...(branches.get(chat.root_chat_id) ?? []), chat]);
  const roots = chats.filter((c) => !(c.root_chat_id && ids.has(c.root_chat_id)));
  const newest = (root: Chat) => Math.max(activity(root), ...(branches.get(root.id) ?? []).map(activity));
  return [...roots]
    .sort((a, b) => newest(b) - newest(a))
    .flatMap((root) => [
      { chat: root, branch: false },
      ...[...(branches.get(root.id) ?? [])]
        .sort((a, b) => activity(b) - activity(a))
        .map((chat) => ({ chat, branch: true })),
    ]);
}

function ChatRow({
  chat,
  branch = false,
  current = false,
  onRename,
  onDelete,
}: {
  chat: Chat;
  /** A branch under its root: indented, marked. */
  branch?: boolean;
  current?: boolean;
  onRename: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const when = chat.last_message?.created_at ?? chat.updated_at;
  const { text, picture } = chatPreview(chat, t);
  const scene = chat.scene ?? null;
  const name =
    chat.title ??
    (scene
      ? groupName(
          scene.characters.map((c) => c.name),
          t('scenes.and'),
        )
      : chat.bot.name);
  return (
    // The row's highlight (hover, focus, the open chat) takes in its menu button: one box per row.
    <li
      className={`flex items-center gap-1 rounded-2xl pr-1 hover:bg-white/5 has-[a:focus-visible]:bg-white/5 has-[a[aria-current=page]]:bg-white/10 ${branch ? 'ml-8' : ''}`}
      data-branch={branch || undefined}
    >
      <Link
        to={chatPath(chat)}
        data-testid="chat-row"
        aria-current={current ? 'page' : undefined}
        className="flex min-w-0 flex-1 items-center gap-3 rounded-2xl px-3 py-3 outline-offset-[-2px]"
      >
        {branch && (
          <Icon
            icon={GitBranch}
            size="sm"
            className="shrink-0 text-muted"
            aria-label={t('chat.story.branch_name')}
            role="img"
          />
        )}
        {scene ? (
          <StackedFaces faces={scene.characters} />
        ) : chat.bot.avatar_url ? (
          <img src={chat.bot.avatar_url} alt="" className="h-14 w-14 shrink-0 rounded-full object-cover" />
        ) : (
          <span className="h-14 w-14 shrink-0 rounded-full bg-surface" aria-hidden="true" />
        )}
        <span className="flex min-w-0 flex-1 flex-col gap-0.5">
          <span className="flex items-baseline justify-between gap-2">
            <span className="truncate font-semibold" data-testid="chat-row-name">
              {name}
            </span>
            <time dateTime={when} className={`shrink-0 text-xs ${chat.unread > 0 ? 'text-primary' : 'text-muted'}`}>
              {formatRelative(when, locale, Date.now(), 'short')}
            </time>
          </span>
          {scene ? (
            <span className="truncate text-xs text-muted" data-testid="chat-row-scene">
              {scene.role === 'member'
                ? t('scenes.row_member', { count: scene.people })
                : scene.people > 1
                  ? t('scenes.row_people', { count: scene.people })
                  : t('scenes.row_group', { count: scene.characters.length })}
            </span>
          ) : (
            chat.title && (
              <span className="truncate text-xs text-muted" data-testid="chat-row-character">
                {chat.bot.name}
              </span>
            )
          )}
          <span className="flex items-center gap-1 truncate text-sm text-muted">
            {picture && <Icon icon={ImageIcon} size="sm" className="shrink-0" />}
            <span className="flex-1 truncate" data-testid="chat-row-preview">
              {text}
            </span>
            <UnreadBadge count={chat.unread} testId="chat-row-unread" />
          </span>
        </span>
      </Link>
      {scene?.role !== 'member' && <RowMenu chat={chat} onRename={onRename} onDelete={onDelete} />}
    </li>
  );
}

/**
 * The user's chats, newest activity first, each opening that chat by its id; each row's menu
 * renames or deletes it. `searching`: the list answers a search (no empty state then).
 */
export function ChatList({
  chats,
  viewer,
  searching = false,
  current,
}: {
  chats: Chat[];
  viewer: string;
  searching?: boolean;
  /** The chat open beside the list (the desktop chat page): marked `aria-current`. */
  current?: string;
}) {
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
        {groupBranches(chats).map(({ chat, branch }) => (
          <ChatRow
            key={chat.id}
            chat={chat}
            branch={branch}
            current={chat.id === current}
            onRename={() => setRenaming(chat)}
            onDelete={() => setDeleting(chat)}
          />
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
