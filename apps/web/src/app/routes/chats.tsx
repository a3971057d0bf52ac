import '../../features/chat/texts';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { Users } from 'lucide-react';
import { IconTextButton } from '../../components/ui/icon-button';
import { NewGroupDialog } from '../../features/chat/components/scene-dialogs';
import { knownCharacters } from '../../features/chat/components/character-picker';
import { useTranslation } from '../../lib/i18n';
import { LoadFailed } from '../../components/ui/load-failed';
import { Page } from '../../components/ui/page';
import { SearchField } from '../../components/ui/search-field';
import { useProfile } from '../../lib/profile';
import { useChats } from '../../features/chat/api/get-chats';
import { ChatList, ChatListSkeleton } from '../../features/chat/components/chat-list';
import { chatPreview } from '../../features/chat/components/chat-preview';
import { chatPath } from '../../features/chat/api/chat-path';
import { saveChatsSnapshot } from '../../lib/chats-snapshot';
import { useSearchQuery } from '../../lib/use-debounced';
import { whenIdle } from '../../lib/idle';
import { isSlowConnection, preloadPage } from '../router-preload';

/** `/chat`: the user's chats, newest activity first; searched on the server (name, title, messages). */
export function Component() {
  const { t } = useTranslation();
  const { profile } = useProfile();
  const { search, setSearch, query: q } = useSearchQuery();
  // One fetch per user: the list waits for the profile (loaded at start) to key it.
  const chats = useChats(profile?.id ?? null, { q });
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const known = useMemo(() => knownCharacters(chats.data ?? []), [chats.data]);
  // The chat page's code loads while the list is read: a tap on a row opens the chat without
  // waiting for it (docs/chat.md "Long chats", "Opening").
  // (Every chat's address has the same page: a later first row costs nothing more.)
  const firstChatPath = chats.data?.[0] ? chatPath(chats.data[0]) : null;
  useEffect(() => {
    // The idle callback's cancel is the clean-up.
    if (firstChatPath && !isSlowConnection()) return whenIdle(() => preloadPage(firstChatPath), 3000);
  }, [firstChatPath]);
  // The latest list (not a search) is kept for the offline page.
  useEffect(() => {
    if (!chats.data || q !== '' || chats.isPlaceholderData) return;
    saveChatsSnapshot(
      chats.data.map((chat) => ({
        id: chat.id,
        name: chat.title ?? chat.bot.name,
        preview: chatPreview(chat, t).text,
        path: chatPath(chat),
        unread: chat.unread,
        at: chat.last_message?.created_at ?? chat.updated_at,
      })),
    );
  }, [chats.data, chats.isPlaceholderData, q, t]);
  return (
    <Page title={t('pages.chats_title')}>
      <div className="max-w-2xl">
        <div className="mb-4 flex flex-col gap-2 sm:flex-row sm:items-center">
          <SearchField
            value={search}
            onChange={setSearch}
            maxLength={100}
            label={t('chats.search_label')}
            placeholder={t('chats.search_placeholder')}
            testId="chats-search"
            className="min-w-0 sm:flex-1"
          />
          <IconTextButton
            icon={Users}
            onClick={() => setCreating(true)}
            testId="new-group"
            className="flex h-10 shrink-0 items-center gap-1.5 self-start rounded-full border border-white/15 px-4 text-sm font-medium hover:bg-white/5 sm:h-11"
          >
            {t('scenes.new_group')}
          </IconTextButton>
        </div>
        {profile && (
          <NewGroupDialog
            open={creating}
            viewer={profile.id}
            known={known}
            onClose={() => setCreating(false)}
            onCreated={(chat) => {
              setCreating(false);
              navigate(chatPath(chat));
            }}
          />
        )}
        {chats.isPending ? (
          <ChatListSkeleton />
        ) : chats.isError ? (
          <LoadFailed
            text={t('chats.load_failed')}
            retryLabel={t('chat.try_again')}
            onRetry={() => void chats.refetch()}
            className="py-12"
          />
        ) : (
          <ChatList chats={chats.data} viewer={profile?.id ?? ''} searching={q !== ''} />
        )}
      </div>
    </Page>
  );
}
