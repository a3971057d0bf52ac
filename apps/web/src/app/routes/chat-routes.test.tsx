import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { clearSession, setTokens } from '../../lib/session';
import { bot, chat, fakeApi, json, message, renderRoutes } from '../../features/chat/test-helpers';
import { Component as CharacterChat } from './character-chat';
import { Component as Chats } from './chats';
import { lastQueryClient, seedProfile, testProfile } from '../../test/profile';
import { profileKeys } from '../../lib/query-keys';
import { forgetEarlyAnswers, startChatOpening } from '../../features/chat/api/opening';
import { testBot } from '../../test/bot';
import { registerPageLoader } from '../router-preload';

const profile = testProfile();

const detail = testBot(bot());

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => {
  clearSession();
  forgetEarlyAnswers();
});

describe('/{slug}', () => {
  it('shows a guest the character and greeting; sending offers sign-up on a new device', async () => {
    const calls = fakeApi((call) => (call.path === '/api/bot/aiko' ? json(detail) : undefined));
    const router = renderRoutes([{ path: '/:slug', element: <CharacterChat /> }], '/aiko?source=menu');
    expect((await screen.findByTestId('greeting')).textContent).toBe('Hi! Coffee or tea?');
    expect(screen.getByTestId('chat-title').textContent).toBe('Aiko');
    expect(screen.getByTestId('chat-call').getAttribute('href')).toBe('/audio?slug=aiko');
    const field = screen.getByPlaceholderText('Message Aiko…') as HTMLTextAreaElement;
    fireEvent.change(field, { target: { value: 'Hello there' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    await waitFor(() => expect(router.state.location.search).toContain('signup=1'));
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get('next')).toBe('/aiko');
    expect(params.get('from')).toBe('chat');
    expect(field.value).toBe('Hello there');
    expect(calls.some((c) => c.path.startsWith('/api/chat'))).toBe(false);
  });

  it("shows the character's gallery; a thumbnail opens the picture full size", async () => {
    const pictures = ['/api/media/bots/b1/gallery-0.png', '/api/media/bots/b1/gallery-1.png'];
    fakeApi((call) => (call.path === '/api/bot/aiko' ? json({ ...detail, gallery: pictures }) : undefined));
    renderRoutes([{ path: '/:slug', element: <CharacterChat /> }], '/aiko');
    const strip = await screen.findByTestId('character-gallery');
    expect(strip.querySelectorAll('img')).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Open photo 2 of Aiko' }));
    const full = await screen.findByTestId('gallery-full');
    expect(full.getAttribute('src')).toBe(pictures[1]);
  });

  it('opens the member chat through get_or_create by slug', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(profile);
    const calls = fakeApi((call) => {
      if (call.path === '/api/chat/get_or_create') return json(chat());
      if (call.path === '/api/chat/history/c1')
        return json({ results: [message('g1', { text: 'Hi! Coffee or tea?' })], next_param: null });
      return undefined;
    });
    const router = renderRoutes([{ path: '/:slug', element: <CharacterChat /> }], '/aiko?source=menu');
    await screen.findByTestId('chat-view');
    expect((await screen.findByTestId('greeting')).textContent).toBe('Hi! Coffee or tea?');
    expect(calls.find((c) => c.path === '/api/chat/get_or_create')?.body).toEqual({ slug: 'aiko' });
    expect(screen.getByTestId('chat-menu')).toBeTruthy();
    // The phone button calls in this chat.
    expect(screen.getByTestId('chat-call').getAttribute('href')).toBe('/audio?chat=c1');
    // One address per chat: the page moved to the chat's id, without asking for it again.
    expect(router.state.location.pathname + router.state.location.search).toBe('/aiko?chat=c1');
    expect(calls.some((c) => c.path === '/api/chat/c1')).toBe(false);
  });

  it('opens a chat by its id; two chats with one character are two addresses', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(profile);
    const calls = fakeApi((call) => {
      if (call.path === '/api/chat/c2') return json(chat({ id: 'c2', title: 'Second' }));
      if (call.path === '/api/chat/history/c2')
        return json({ results: [message('g2', { chat_id: 'c2', text: 'Welcome back' })], next_param: null });
      return undefined;
    });
    renderRoutes([{ path: '/:slug', element: <CharacterChat /> }], '/aiko?chat=c2');
    expect((await screen.findByTestId('chat-title')).textContent).toBe('Second');
    await screen.findByText('Welcome back');
    expect(calls.some((c) => c.path === '/api/chat/get_or_create')).toBe(false);
  });

  it("asks for the character once, with the chat's opening, even before the profile is there", async () => {
    setTokens('a.b.c', 'd.e.f');
    const calls = fakeApi((call) => {
      if (call.path === '/api/chat/c2') return json(chat({ id: 'c2', title: 'Second' }));
      if (call.path === '/api/chat/history/c2')
        return json({ results: [message('g2', { chat_id: 'c2', text: 'Welcome back' })], next_param: null });
      if (call.path === '/api/bot/aiko') return json(detail);
      return undefined;
    });
    // The route's loader begins a navigation (what an earlier page asked for is forgotten) and
    // starts the chat, its first page and the character at once.
    forgetEarlyAnswers();
    startChatOpening('c2', 'aiko');
    await waitFor(() =>
      expect(calls.map((c) => c.path).sort()).toEqual(['/api/bot/aiko', '/api/chat/c2', '/api/chat/history/c2']),
    );
    renderRoutes([{ path: '/:slug', element: <CharacterChat /> }], '/aiko?chat=c2');
    await screen.findByTestId('chat-skeleton');
    // The profile comes after the page rendered (the app's start asked for it).
    act(() => lastQueryClient()!.setQueryData(profileKeys.me(), profile));
    expect((await screen.findByTestId('chat-title')).textContent).toBe('Second');
    await screen.findByText('Welcome back');
    await waitFor(() => expect(document.title).toContain('Aiko'));
    expect(calls.filter((c) => c.path === '/api/bot/aiko')).toHaveLength(1);
    expect(calls.filter((c) => c.path === '/api/chat/c2' || c.path === '/api/chat/history/c2')).toHaveLength(2);
  });

  it('says a deleted chat no longer exists and offers the latest one', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(profile);
    fakeApi(() => undefined);
    const router = renderRoutes([{ path: '/:slug', element: <CharacterChat /> }], '/aiko?chat=gone');
    expect((await screen.findByRole('alert')).textContent).toBe('This chat no longer exists.');
    fireEvent.click(screen.getByText('Open the latest chat'));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('says "Failed to start a new chat" when the chat cannot be opened', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(profile);
    fakeApi((call) =>
      call.path === '/api/chat/get_or_create' ? json({ detail: 'boom', code: 'internal_error' }, 500) : undefined,
    );
    renderRoutes([{ path: '/:slug', element: <CharacterChat /> }], '/aiko');
    await waitFor(() => expect(screen.getAllByText('Failed to start a new chat').length).toBeGreaterThanOrEqual(2));
    expect(screen.getByText('Try again')).toBeTruthy();
  });
});

describe('/chat', () => {
  it('lists chats newest first, each linking to its character', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(profile);
    const older = chat({
      id: 'c1',
      bot: bot({ slug: 'aiko', name: 'Aiko' }),
      updated_at: '2026-11-20T10:00:00.000Z',
      last_message: message('m1', { text: 'See you tomorrow', created_at: '2026-11-20T10:00:00.000Z' }),
    });
    const newer = chat({
      id: 'c2',
      bot: bot({ id: 'bot2', slug: 'mara', name: 'Mara' }),
      updated_at: new Date(Date.now() - 5 * 60_000).toISOString(),
      last_message: message('m2', {
        role: 'user',
        text: 'Good night!',
        created_at: new Date(Date.now() - 5 * 60_000).toISOString(),
      }),
    });
    fakeApi((call) => (call.path === '/api/chats/available' ? json([older, newer]) : undefined));
    renderRoutes([{ path: '/chat', element: <Chats /> }], '/chat');
    await screen.findByTestId('chat-list');
    const names = screen.getAllByTestId('chat-row-name').map((n) => n.textContent);
    expect(names).toEqual(['Mara', 'Aiko']);
    const rows = screen.getAllByTestId('chat-row');
    expect(rows[0]!.getAttribute('href')).toBe('/mara?chat=c2');
    expect(rows[1]!.getAttribute('href')).toBe('/aiko?chat=c1');
    expect(rows[0]!.textContent).toContain('You: Good night!');
    expect(rows[0]!.textContent).toContain('5 min. ago');
    expect(rows[1]!.textContent).toContain('See you tomorrow');
  });

  it('searches on the server as the user types', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(profile);
    const found = chat({ id: 'c9', title: 'Harbour plans' });
    const calls = fakeApi((call) => {
      if (call.path !== '/api/chats/available') return undefined;
      const q = new URLSearchParams(call.search).get('q');
      return json(q === null ? [chat(), found] : q === 'harbour' ? [found] : []);
    });
    renderRoutes([{ path: '/chat', element: <Chats /> }], '/chat');
    await waitFor(() => expect(screen.getAllByTestId('chat-row')).toHaveLength(2));
    fireEvent.change(screen.getByTestId('chats-search'), { target: { value: 'harbour' } });
    await waitFor(() => expect(screen.getAllByTestId('chat-row')).toHaveLength(1));
    expect(screen.getByTestId('chat-row-name').textContent).toBe('Harbour plans');
    expect(calls.filter((c) => c.search.includes('q=')).map((c) => c.search)).toEqual(['?q=harbour']);
    fireEvent.change(screen.getByTestId('chats-search'), { target: { value: 'nothing' } });
    expect((await screen.findByTestId('chats-no-results')).textContent).toBe('No chats match your search.');
  });

  it("loads the chat page's code in idle time while the list shows, so a tap does not wait for it", async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(profile);
    const loaded: string[] = [];
    registerPageLoader('/:slug', async () => void loaded.push('chat page'));
    fakeApi((call) => (call.path === '/api/chats/available' ? json([chat({ id: 'c7' })]) : undefined));
    renderRoutes([{ path: '/chat', element: <Chats /> }], '/chat');
    await screen.findByTestId('chat-list');
    await waitFor(() => expect(loaded).toEqual(['chat page']), { timeout: 5000 });
  });

  it('shows an empty state that leads to Explore', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(profile);
    fakeApi((call) => (call.path === '/api/chats/available' ? json([]) : undefined));
    renderRoutes([{ path: '/chat', element: <Chats /> }], '/chat');
    await screen.findByTestId('chats-empty');
    expect(screen.getByText('Explore characters').closest('a')?.getAttribute('href')).toBe('/');
  });
});
