import { AvatarRow } from '../../../components/ui/avatar-row';
import { useTranslation } from '../../../lib/i18n';
import { chatPath } from '../api/chat-path';
import { useChats } from '../api/get-chats';

/** Explore's first row for a member: their latest chats, to pick one up again (none: no row). */
export function ContinueChattingRow({ viewer }: { viewer: string }) {
  const { t } = useTranslation();
  const chats = useChats(viewer, { q: '' });
  if (!chats.data?.length) return null;
  return (
    <AvatarRow
      title={t('explore.continue_chatting')}
      testId="continue-chatting"
      items={chats.data.slice(0, 12).map((chat) => ({
        key: chat.id,
        to: chatPath(chat),
        name: chat.title || chat.bot.name,
        avatarUrl: chat.bot.avatar_url,
      }))}
    />
  );
}
