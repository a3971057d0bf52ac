import { screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { clearSession, setTokens } from '../../lib/session';
import { bot, chat, fakeApi, json, renderRoutes } from '../../features/chat/test-helpers';
import { seedProfile, testProfile } from '../../test/profile';
import { Component as Explore } from './explore';

const answers = (call: { path: string }) => {
  if (call.path === '/api/chats/available')
    return json([
      chat({ id: 'c1', bot: bot({ slug: 'aiko', name: 'Aiko' }) }),
      chat({
        id: 'c2',
        title: 'Rainy day',
        updated_at: '2026-11-22T10:00:00.000Z',
        bot: bot({ id: 'b2', slug: 'rin', name: 'Rin' }),
      }),
    ]);
  if (call.path === '/api/bots/popular')
    return json({ results: [{ ...bot({ id: 'b3', slug: 'star', name: 'Star' }), people_week: 12 }] });
  if (call.path === '/api/bots/available') return json({ results: [], next_param: null });
  return undefined;
};

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => clearSession());

describe('Explore for a member: continue chatting, then popular this week', () => {
  it('shows the member’s latest chats first, then the week’s popular characters', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(testProfile({ id: 'u1' }));
    fakeApi(answers);
    renderRoutes([{ path: '/', element: <Explore /> }], '/');
    const continuing = await screen.findByTestId('continue-chatting');
    const items = within(continuing).getAllByTestId('continue-chatting-item');
    expect(items.map((item) => [item.textContent, item.getAttribute('href')])).toEqual([
      ['Aiko', '/aiko?chat=c1'],
      ['Rainy day', '/rin?chat=c2'],
    ]);
    const popular = await screen.findByTestId('popular-week');
    expect(within(popular).getByTestId('popular-week-item').textContent).toBe('Star12 people');
    // "Continue chatting" comes first.
    expect(continuing.compareDocumentPosition(popular) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('shows a guest neither row, and asks nothing for them', async () => {
    const calls = fakeApi(answers);
    renderRoutes([{ path: '/', element: <Explore /> }], '/');
    await screen.findByTestId('guest-hero');
    expect(screen.queryByTestId('continue-chatting')).toBeNull();
    expect(screen.queryByTestId('popular-week')).toBeNull();
    expect(calls.some((c) => c.path === '/api/bots/popular' || c.path === '/api/chats/available')).toBe(false);
  });
});
