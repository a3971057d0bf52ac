import { useEffect, useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { LoadFailed } from '../../components/ui/load-failed';
import { Page } from '../../components/ui/page';
import { SearchField } from '../../components/ui/search-field';
import { useProfile } from '../../lib/profile';
import { useChats } from '../../features/chat/api/get-chats';
import { ChatList, ChatListSkeleton } from '../../features/chat/components/chat-list';

/** `/chat`: the user's chats, newest activity first; searched on the server (name, title, messages). */
export function Component() {
  const { t } = useTranslation();
  const { profile } = useProfile();
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  // The server is asked once typing pauses (300 ms), not on every key.
  useEffect(() => {
    const timer = setTimeout(() => setQ(search.trim()), 300);
    return () => clearTimeout(timer);
  }, [search]);
  // One fetch per user: the list waits for the profile (loaded at start) to key it.
  const chats = useChats(profile?.id ?? null, { q });
  return (
    <Page title={t('pages.chats_title')}>
      <div className="max-w-2xl">
        <SearchField
          value={search}
          onChange={setSearch}
          maxLength={100}
          label={t('chats.search_label')}
          placeholder={t('chats.search_placeholder')}
          testId="chats-search"
          className="mb-4"
        />
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
