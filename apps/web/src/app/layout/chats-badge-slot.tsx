import { lazy, Suspense } from 'react';
import { withChunkReload } from '../../lib/chunk-reload';

// The Chats tab's unread count: its code (and its query) loads after the first screen.
const ChatsBadge = lazy(withChunkReload(() => import('./chats-badge').then((m) => ({ default: m.ChatsBadge }))));

/** Where the Chats tab shows its unread count. */
export function ChatsBadgeSlot({ className }: { className?: string }) {
  return (
    <Suspense fallback={null}>
      <ChatsBadge className={className} />
    </Suspense>
  );
}
