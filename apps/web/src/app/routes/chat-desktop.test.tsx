import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { clearSession, setTokens } from '../../lib/session';
import { bot, chat, fakeApi, json, message, renderRoutes } from '../../features/chat/test-helpers';
import { seedProfile, testProfile } from '../../test/profile';
import { Component as CharacterChat } from './character-chat';

/** A window `width` px wide, as far as `matchMedia('(min-width: …px)')` can tell. */
function windowWidth(width: number) {
  window.matchMedia = ((query: string) => {
    const min = Number(/min-width:\s*(\d+)px/.exec(query)?.[1] ?? 0);
    return {
      matches: width >= min,
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    } as unknown as MediaQueryList;
  }) as typeof window.matchMedia;
}

function openChat(firstListWithout = false) {
  let lists = 0;
  setTokens('a.b.c', 'd.e.f');
  seedProfile(testProfile({ id: 'u1' }));
  const other = chat({
    id: 'c2',
    updated_at: '2026-11-22T10:00:00.000Z',
    bot: bot({ id: 'b2', slug: 'rin', name: 'Rin' }),
  });
  fakeApi((call) => {
    if (call.path === '/api/chat/c1') return json(chat());
    if (call.path === '/api/chat/history/c1')
      return json({ results: [message('g1', { text: 'Hi! Coffee or tea?' })], next_param: null });
    if (call.path === '/api/chats/available') return json(firstListWithout && !lists++ ? [other] : [chat(), other]);
    if (call.path === '/api/bot/aiko') return json({ ...bot(), scenario: '', gallery: [] });
    return undefined;
  });
  renderRoutes([{ path: '/:slug', element: <CharacterChat /> }], '/aiko?chat=c1');
}

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => {
  clearSession();
  windowWidth(0);
});

describe('the chat page uses the width of a desktop', () => {
  it('from 1024 px: the user’s chats beside the conversation, the open one marked', async () => {
    windowWidth(1280);
    openChat();
    const beside = await screen.findByTestId('chats-beside');
    const rows = await within(beside).findAllByTestId('chat-row');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('Aiko'),
      expect.stringContaining('Rin'),
    ]);
    expect(rows[0]!.getAttribute('aria-current')).toBe('page');
    expect(rows[1]!.getAttribute('aria-current')).toBeNull();
    expect((await screen.findByText('Hi! Coffee or tea?')).textContent).toBeTruthy();
  });

  it('reads the list again when the open chat was started after it was read', async () => {
    windowWidth(1280);
    openChat(true);
    const beside = await screen.findByTestId('chats-beside');
    await waitFor(() => expect(within(beside).getAllByTestId('chat-row')).toHaveLength(2));
    expect(within(beside).getAllByTestId('chat-row')[0]!.getAttribute('aria-current')).toBe('page');
  });

  it('below 1024 px: the conversation alone, as on a phone', async () => {
    windowWidth(1023);
    openChat();
    expect((await screen.findByText('Hi! Coffee or tea?')).textContent).toBeTruthy();
    expect(screen.queryByTestId('chats-beside')).toBeNull();
  });
});
