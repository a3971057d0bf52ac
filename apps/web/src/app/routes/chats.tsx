import { useTranslation } from 'react-i18next';
import { Page } from '../../components/ui/page';
import { useSession } from '../../lib/session';
import { useChats } from '../../features/chat/api/get-chats';
import { ChatList, ChatListSkeleton } from '../../features/chat/components/chat-list';

/** `/chat`: the user's chats, newest activity first. */
export function Component() {
  const { t } = useTranslation();
  const { profile } = useSession();
  // One fetch per user: the list waits for the profile (loaded at start) to key it.
  const chats = useChats(profile?.id ?? null);
  return (
    <Page title={t('pages.chats_title')}>
      <div className="max-w-2xl">
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
          <ChatList chats={chats.data} />
        )}
      </div>
    </Page>
  );
}
