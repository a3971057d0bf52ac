import { useEffect, useState } from 'react';
import { useTranslation } from '../../lib/i18n';
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
          <div className="flex flex-col items-center gap-3 py-12 text-center">
            <p role="alert">{t('chats.load_failed')}</p>
            <button
              type="button"
              onClick={() => void chats.refetch()}
              className="rounded-full bg-primary px-5 py-2 text-sm font-semibold text-on-primary"
            >
              {t('chat.try_again')}
            </button>
          </div>
        ) : (
          <ChatList chats={chats.data} viewer={profile?.id ?? ''} searching={q !== ''} />
        )}
      </div>
    </Page>
  );
}
