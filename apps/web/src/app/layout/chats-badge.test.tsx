import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { useUserEvents } from '../../lib/user-events';
import { clearSession, setTokens } from '../../lib/session';
import { chat, fakeApi, json, liveStream, renderRoutes } from '../../features/chat/test-helpers';
import { ChatList } from '../../features/chat/components/chat-list';
import { seedProfile, testProfile } from '../../test/profile';
import { ChatsBadge } from './chats-badge';

/** Unread badges (issue 31): per chat on the list, the total on the Chats tab, cleared from another device. */
function Shell() {
  useUserEvents('u1');
  return <ChatsBadge />;
}

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => clearSession());

describe('unread badges', () => {
  it('a chat row shows its unread count; none at 0', () => {
    setTokens('a.b.c', 'd.e.f');
    renderRoutes(
      [
        {
          path: '/chat',
          element: <ChatList chats={[chat({ id: 'c1', unread: 3 }), chat({ id: 'c2', unread: 0 })]} viewer="u1" />,
        },
      ],
      '/chat',
    );
    const badges = screen.getAllByTestId('chat-row-unread');
    expect(badges.map((b) => b.textContent)).toEqual(['3']);
    expect(badges[0]!.getAttribute('aria-label')).toBe('Unread messages: 3');
  });

  it("the Chats tab's total follows the user's events: a chat read on another device clears it", async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(testProfile({ id: 'u1' }));
    const events = liveStream();
    fakeApi((call) => {
      if (call.path === '/api/chats/unread') return json({ total: 120 });
      if (call.path === '/api/events') return events.response();
      return undefined;
    });
    renderRoutes([{ path: '/', element: <Shell /> }], '/');
    await waitFor(() => expect(screen.getByTestId('chats-tab-badge').textContent).toBe('99+'));
    events.emit('unread', { type: 'unread', chat_id: 'c1', unread_total: 4 });
    await waitFor(() => expect(screen.getByTestId('chats-tab-badge').textContent).toBe('4'));
    events.emit('read', { type: 'read', chat_id: 'c1', unread_total: 0 });
    await waitFor(() => expect(screen.queryByTestId('chats-tab-badge')).toBeNull());
  });
});
