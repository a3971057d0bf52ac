import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Chat, Message, Scene } from '@reverie/shared';
import { initI18n } from '../../../lib/i18n';
import { clearSession, setTokens } from '../../../lib/session';
import {
  bot,
  chat,
  fakeApi,
  json,
  liveStream,
  message,
  renderRoutes,
  type Call,
  renderChatView,
} from '../test-helpers';
import { ChatView } from './chat-view';
import { ChatList } from './chat-list';
import { mentionMatches, mentionQuery } from './composer';

const mira = { bot_id: 'b-mira', slug: 'mira', name: 'Mira', avatar_url: '/m.png' };
const jun = { bot_id: 'b-jun', slug: 'jun', name: 'Jun', avatar_url: '/j.png' };

const groupChat = (role: 'owner' | 'member' = 'owner'): Chat =>
  chat({
    bot: bot({ id: 'b-mira', slug: 'mira', name: 'Mira' }),
    scene: { characters: [mira, jun], people: 2, role },
  });

const scene = (role: 'owner' | 'member' = 'owner', changes: Partial<Scene> = {}): Scene => ({
  chat_id: 'c1',
  title: null,
  place: 'The harbour bar',
  situation: 'A stormy night.',
  turn_mode: 'auto',
  characters: [
    { ...mira, muted: false, position: 0 },
    { ...jun, muted: false, position: 1 },
  ],
  people: [
    {
      user_id: 'u1',
      name: 'Ilse',
      persona_id: null,
      avatar_url: null,
      role: 'owner',
      online: true,
      joined_at: '2026-11-23T10:00:00.000Z',
    },
    {
      user_id: 'u2',
      name: 'Tomas',
      persona_id: null,
      avatar_url: null,
      role: 'member',
      online: false,
      joined_at: '2026-11-23T10:05:00.000Z',
    },
  ],
  me: { user_id: role === 'owner' ? 'u1' : 'u2', role },
  continue_remaining: 0,
  ...changes,
});

const miraSays = (id: string, text: string, changes: Partial<Message> = {}) =>
  message(id, { text, reply_to: 'x', speaker: { kind: 'character', ...mira }, ...changes });

function renderGroup(
  history: Message[],
  answer: (call: Call) => Response | Promise<Response> | undefined,
  options: { role?: 'owner' | 'member'; viewer?: string; scene?: Partial<Scene> } = {},
) {
  const role = options.role ?? 'owner';
  const events = liveStream();
  const left: string[] = [];
  const calls = fakeApi((call) => {
    if (call.method === 'GET' && call.path === '/api/chat/history/c1')
      return json({ results: history, next_param: null });
    if (call.method === 'GET' && call.path === '/api/chat/c1/scene') return json(scene(role, options.scene));
    if (call.method === 'GET' && call.path === '/api/chat/c1/scene/events') return events.response();
    return answer(call);
  });
  renderRoutes(
    [
      {
        path: '/mira',
        element: (
          <ChatView
            chat={groupChat(role)}
            viewer={options.viewer ?? (role === 'owner' ? 'u1' : 'u2')}
            onBack={() => {}}
            onRequirePremium={() => {}}
            onOpenChat={() => {}}
            onDeleted={() => left.push('left')}
          />
        ),
      },
      { path: '/audio', element: <p>call page</p> },
    ],
    '/mira',
  );
  return { calls, events, left };
}

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => clearSession());

describe('a group chat', () => {
  it("shows the faces, each reply under its character's name, another person's message with theirs, and a private mark", async () => {
    setTokens('a.b.c', 'd.e.f');
    renderGroup(
      [
        miraSays('m3', 'Rain again.'),
        message('m2', {
          role: 'user',
          text: 'Evening, all',
          speaker: { kind: 'person', user_id: 'u2', name: 'Tomas', persona_id: null, avatar_url: null },
        }),
        message('m1', {
          role: 'system',
          text: 'You are talking with AI characters.',
          notice: 'ai_disclosure',
          private: true,
        }),
      ],
      () => undefined,
    );
    await screen.findByText('Rain again.');
    expect(screen.getByTestId('chat-title').textContent).toBe('Mira and Jun');
    // The faces come with the scene (read beside the history).
    expect(await screen.findAllByTestId('scene-face')).toHaveLength(2);
    expect(within(screen.getByTestId('message-bot')).getByTestId('message-speaker').textContent).toBe('Mira');
    const person = screen.getByTestId('message-person');
    expect(within(person).getByTestId('message-speaker').textContent).toBe('Tomas');
    expect(person.textContent).toContain('Evening, all');
    expect(screen.getByTestId('message-private').textContent).toBe('Only you see this');
    expect(screen.getByTestId('system-notice').textContent).toContain(
      'Mira and Jun are AI characters, not real people.',
    );
    await waitFor(() => expect(screen.getByTestId('scene-intro').textContent).toContain('The harbour bar'));
  });

  it("live: another person's message, a reply followed as it is written, typing and presence", async () => {
    setTokens('a.b.c', 'd.e.f');
    const reply = liveStream();
    const { calls, events } = renderGroup([miraSays('m1', 'Welcome.')], (call) =>
      call.method === 'GET' && call.path === '/api/chat/c1/stream/r1' ? reply.response() : undefined,
    );
    await screen.findByText('Welcome.');
    await waitFor(() => expect(calls.some((c) => c.path === '/api/chat/c1/scene/events')).toBe(true));
    act(() => {
      events.emit('presence', { type: 'presence', online: ['u1', 'u2'] });
      events.emit('typing', { type: 'typing', user_id: 'u2', name: 'Tomas' });
    });
    expect((await screen.findByTestId('scene-typing')).textContent).toBe('Tomas is typing…');
    await waitFor(() => expect(screen.getByTestId('scene-online').textContent).toContain('2 here'));
    act(() => {
      events.emit('message', {
        type: 'message',
        message: message('u-msg', {
          role: 'user',
          text: 'Hi @Jun',
          speaker: { kind: 'person', user_id: 'u2', name: 'Tomas', persona_id: null, avatar_url: null },
        }),
      });
      events.emit('message', {
        type: 'message',
        message: message('r1', {
          text: '',
          state: 'streaming',
          reply_to: 'u-msg',
          speaker: { kind: 'character', ...jun },
        }),
      });
    });
    expect((await screen.findByTestId('message-person')).textContent).toContain('Hi @Jun');
    // The person who sent stops "typing".
    await waitFor(() => expect(screen.queryByTestId('scene-typing')).toBeNull());
    await waitFor(() => expect(calls.some((c) => c.path === '/api/chat/c1/stream/r1')).toBe(true));
    act(() => {
      reply.emit(
        'bot_message',
        message('r1', { state: 'streaming', reply_to: 'u-msg', speaker: { kind: 'character', ...jun } }),
      );
      reply.emit('delta', { message_id: 'r1', text: 'Hey Tomas.' });
    });
    await screen.findByText('Hey Tomas.');
    const last = screen.getAllByTestId('message-bot').at(-1)!;
    expect(within(last).getByTestId('message-speaker').textContent).toBe('Jun');
    // While she writes, anyone can stop it.
    expect(screen.getByTestId('stop-button')).toBeTruthy();
    act(() => {
      reply.emit(
        'bot_message',
        message('r1', { text: 'Hey Tomas.', state: 'done', reply_to: 'u-msg', speaker: { kind: 'character', ...jun } }),
      );
      reply.end();
    });
    await waitFor(() => expect(screen.queryByTestId('stop-button')).toBeNull());
  });

  it('a tap on a face makes her speak; Continue starts the characters and follows the first reply', async () => {
    setTokens('a.b.c', 'd.e.f');
    const spoken = liveStream();
    const followed = liveStream();
    const { calls } = renderGroup([miraSays('m1', 'Welcome.')], (call) => {
      if (call.method === 'POST' && call.path === '/api/chat/c1/scene/speak') return spoken.response();
      if (call.method === 'POST' && call.path === '/api/chat/c1/scene/continue')
        return json({ continue_remaining: 2, message_id: 'r2' });
      if (call.method === 'GET' && call.path === '/api/chat/c1/stream/r2') return followed.response();
      return undefined;
    });
    await screen.findByText('Welcome.');
    fireEvent.click(await screen.findByRole('button', { name: 'Ask Jun to speak' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/api/chat/c1/scene/speak')?.body).toEqual({ bot_id: 'b-jun' }),
    );
    act(() => {
      spoken.emit(
        'bot_message',
        message('r1', { text: 'Me?', state: 'done', reply_to: 'm1', speaker: { kind: 'character', ...jun } }),
      );
      spoken.end();
    });
    await screen.findByText('Me?');
    await waitFor(() => expect((screen.getByTestId('scene-continue') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('scene-continue'));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/chat/c1/stream/r2')).toBe(true));
    act(() => {
      followed.emit('bot_message', miraSays('r2', 'Go on then.', { state: 'done', reply_to: 'r1' }));
      followed.end();
    });
    await screen.findByText('Go on then.');
  });

  it('the characters dialog mutes one; the call button asks whom to call', async () => {
    setTokens('a.b.c', 'd.e.f');
    const { calls } = renderGroup([], (call) =>
      call.method === 'PATCH' && call.path === '/api/chat/c1/scene/characters/b-jun'
        ? json(
            scene('owner', {
              characters: [
                { ...mira, muted: false, position: 0 },
                { ...jun, muted: true, position: 1 },
              ],
            }),
          )
        : undefined,
    );
    await screen.findAllByTestId('scene-face');
    fireEvent.click(screen.getByTestId('scene-characters-open'));
    fireEvent.click(await screen.findByRole('button', { name: 'Mute Jun' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PATCH' && c.path.endsWith('/characters/b-jun'))?.body).toEqual({
        muted: true,
      }),
    );
    await screen.findByRole('button', { name: 'Unmute Jun' });
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });

    fireEvent.click(screen.getByTestId('chat-call'));
    const options = await screen.findAllByTestId('scene-call-option');
    expect(options.map((o) => o.getAttribute('href'))).toEqual(['/audio?slug=mira', '/audio?slug=jun']);
  });

  it('the owner makes an invite link and closes it', async () => {
    setTokens('a.b.c', 'd.e.f');
    const invite = {
      id: 'i1',
      code: 'abcdefghijkl',
      url: 'http://app.test/scene/join/abcdefghijkl',
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      max_members: 10,
      joined: 0,
      revoked: false,
      created_at: new Date().toISOString(),
    };
    let invites: (typeof invite)[] = [];
    const { calls } = renderGroup([], (call) => {
      if (call.path !== '/api/chat/c1/scene/invites' && !call.path.startsWith('/api/chat/c1/scene/invites/'))
        return undefined;
      if (call.method === 'GET') return json({ results: invites });
      if (call.method === 'POST') {
        invites = [invite];
        return json(invite, 201);
      }
      invites = [];
      return json(null, 204);
    });
    await screen.findAllByTestId('scene-face');
    fireEvent.click(screen.getByTestId('scene-people-open'));
    const people = await screen.findByTestId('scene-people');
    expect(within(people).getAllByTestId('scene-person')).toHaveLength(2);
    fireEvent.change(within(people).getByTestId('scene-invite-expiry'), { target: { value: '168' } });
    fireEvent.click(within(people).getByTestId('scene-invite-create'));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST' && c.path === '/api/chat/c1/scene/invites')?.body).toEqual({
        expires_in_hours: 168,
        max_members: 10,
      }),
    );
    expect(((await screen.findByTestId('scene-invite-url')) as HTMLInputElement).value).toBe(invite.url);
    fireEvent.click(screen.getByTestId('scene-invite-revoke'));
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/chat/c1/scene/invites/i1')).toBe(true),
    );
    await waitFor(() => expect(screen.queryByTestId('scene-invite-url')).toBeNull());
  });

  it('a member leaves from People; being removed elsewhere leaves the chat too', async () => {
    setTokens('a.b.c', 'd.e.f');
    const { calls, left, events } = renderGroup(
      [],
      (call) =>
        call.method === 'DELETE' && call.path === '/api/chat/c1/scene/people/u2' ? json(null, 204) : undefined,
      { role: 'member' },
    );
    await screen.findAllByTestId('scene-face');
    // A member's menu holds the scene's entries only (no rename or delete of the owner's chat).
    fireEvent.click(screen.getByTestId('scene-people-open'));
    fireEvent.click(await screen.findByTestId('scene-leave'));
    fireEvent.click(screen.getByTestId('scene-leave-confirm'));
    await waitFor(() => expect(left).toEqual(['left']));
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/chat/c1/scene/people/u2')).toBe(true);
    act(() => events.emit('removed', { type: 'removed' }));
    await waitFor(() => expect(left).toEqual(['left', 'left']));
  });
});

describe('the scene setting', () => {
  it('the owner edits place, situation and the turn mode; a member only reads them', async () => {
    setTokens('a.b.c', 'd.e.f');
    const { calls } = renderGroup([], (call) =>
      call.method === 'PATCH' && call.path === '/api/chat/c1/scene'
        ? json(scene('owner', { place: 'A lighthouse' }))
        : undefined,
    );
    await screen.findAllByTestId('scene-face');
    fireEvent.click(screen.getByTestId('scene-setting-open'));
    const form = await screen.findByTestId('scene-setting-form');
    fireEvent.change(within(form).getByTestId('scene-place'), { target: { value: 'A lighthouse' } });
    fireEvent.click(within(form).getByRole('radio', { name: /Manual/ }));
    fireEvent.click(within(form).getByTestId('scene-setting-save'));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PATCH' && c.path === '/api/chat/c1/scene')?.body).toEqual({
        place: 'A lighthouse',
        situation: 'A stormy night.',
        turn_mode: 'manual',
      }),
    );
  });

  it('is read-only for a member', async () => {
    setTokens('a.b.c', 'd.e.f');
    renderGroup([], () => undefined, { role: 'member' });
    await screen.findAllByTestId('scene-face');
    fireEvent.click(screen.getByTestId('scene-setting-open'));
    const form = await screen.findByTestId('scene-setting-form');
    expect((within(form).getByTestId('scene-place') as HTMLInputElement).readOnly).toBe(true);
    expect(within(form).queryByTestId('scene-setting-save')).toBeNull();
  });
});

describe('a running Continue', () => {
  it('shows the turns left and stops them', async () => {
    setTokens('a.b.c', 'd.e.f');
    const { calls } = renderGroup(
      [],
      (call) => (call.method === 'POST' && call.path === '/api/chat/c1/stop' ? json(null, 204) : undefined),
      { scene: { continue_remaining: 2 } },
    );
    const stop = await screen.findByTestId('scene-continue-stop');
    expect(stop.textContent).toBe('2 more turns');
    fireEvent.click(stop);
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/api/chat/c1/stop')).toBe(true));
  });
});

describe('a one-to-one chat', () => {
  it('"Add a character" in the menu adds her: the chat becomes a group, its history stays', async () => {
    setTokens('a.b.c', 'd.e.f');
    const calls = fakeApi((call) => {
      if (call.path === '/api/chat/history/c1')
        return json({ results: [message('g1', { text: 'Hi! Coffee or tea?' })], next_param: null });
      if (call.path === '/api/chats/available') return json([chat()]);
      if (call.path === '/api/bots/available')
        return json({ results: [bot(), bot({ id: 'b-jun', slug: 'jun', name: 'Jun' })], next_param: null });
      if (call.method === 'POST' && call.path === '/api/chat/c1/scene/characters') return json(scene());
      return undefined;
    });
    renderChatView(chat());
    await screen.findByText('Hi! Coffee or tea?');
    expect(screen.queryByTestId('scene-bar')).toBeNull();
    fireEvent.click(screen.getByTestId('chat-menu'));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Add a character' }));
    const dialog = await screen.findByTestId('add-character-dialog');
    // Aiko is in the chat already: only Jun is offered.
    await waitFor(() => expect(within(dialog).getAllByTestId('scene-pick-option')).toHaveLength(1));
    fireEvent.click(within(dialog).getByTestId('scene-pick-option'));
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/api/chat/c1/scene/characters')?.body).toEqual({ bot_id: 'b-jun' }),
    );
  });
});

describe('the composer in a group', () => {
  it('offers the characters after @ and completes the mention', () => {
    expect(mentionQuery('Hello @Mi')).toBe('Mi');
    expect(mentionQuery('Hello @Mira ')).toBeNull();
    expect(mentionQuery('mail@example')).toBeNull();
    expect(mentionMatches(['Mira', 'Jun', 'Anna Lee'], 'le')).toEqual(['Anna Lee']);
    expect(mentionMatches(['Mira', 'Jun'], '')).toEqual(['Mira', 'Jun']);
  });
});

describe('the chats list', () => {
  it("shows a group's faces and names, and a joined scene without the owner's menu", () => {
    setTokens('a.b.c', 'd.e.f');
    fakeApi(() => undefined);
    renderRoutes(
      [
        {
          path: '/chat',
          element: (
            <ChatList
              chats={[
                groupChat('owner'),
                { ...groupChat('member'), id: 'c2', scene: { characters: [mira, jun], people: 3, role: 'member' } },
              ]}
              viewer="u1"
            />
          ),
        },
      ],
      '/chat',
    );
    const rows = screen.getAllByTestId('chat-row');
    expect(rows).toHaveLength(2);
    expect(screen.getAllByTestId('stacked-faces')).toHaveLength(2);
    expect(screen.getAllByTestId('chat-row-name').map((n) => n.textContent)).toEqual(['Mira and Jun', 'Mira and Jun']);
    expect(screen.getAllByTestId('chat-row-scene').map((n) => n.textContent)).toEqual([
      'Shared scene · 2 people',
      'You joined · 3 people',
    ]);
    expect(screen.getAllByTestId('chat-row-menu')).toHaveLength(1);
  });
});
