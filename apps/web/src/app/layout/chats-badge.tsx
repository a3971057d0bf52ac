import { UnreadBadge } from '../../components/ui/unread-badge';
import { useProfile } from '../../lib/profile';
import { useUnreadTotal } from '../../lib/unread';

/** The Chats tab's unread count (and, through it, the app icon's badge). */
export function ChatsBadge({ className = '' }: { className?: string }) {
  const { profile } = useProfile();
  const total = useUnreadTotal(profile?.id ?? null);
  return <UnreadBadge count={total} className={className} testId="chats-tab-badge" />;
}
