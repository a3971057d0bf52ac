import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SceneInvitePreview } from '@reverie/shared';
import { initI18n } from '../../lib/i18n';
import { clearSession, setTokens } from '../../lib/session';
import { bot, fakeApi, json, renderRoutes } from '../../features/chat/test-helpers';
import { NewGroupDialog } from '../../features/chat/components/scene-dialogs';
import { seedProfile, testProfile } from '../../test/profile';
import { Component as SceneJoin } from './scene-join';

/** `/scene/join/{code}` and "New group" (docs/groups.md "Web"). */

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => {
  cleanup();
  clearSession();
});

const CODE = 'abcdefghijkl';
const preview = (changes: Partial<SceneInvitePreview> = {}): SceneInvitePreview => ({
  chat_id: 'c9',
  title: null,
  place: 'The harbour bar',
  owner_name: 'Ilse',
  characters: [
    { bot_id: 'b-mira', slug: 'mira', name: 'Mira', avatar_url: null },
    { bot_id: 'b-jun', slug: 'jun', name: 'Jun', avatar_url: null },
  ],
  people: 1,
  max_members: 10,
  expires_at: new Date(Date.now() + 3_600_000).toISOString(),
  already_member: false,
  ...changes,
});

const routes = [
  { path: '/scene/join/:code', element: <SceneJoin /> },
  { path: '/mira', element: <p>the scene</p> },
];

describe('/scene/join/{code}', () => {
  it('previews the scene, asks for 18+ and a persona, joins and opens it', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(testProfile());
    const calls = fakeApi((call) => {
      if (call.path === `/api/scene-invites/${CODE}`) return json(preview());
      if (call.path === '/api/bots/mine')
        return json({ results: [bot({ id: 'p1', name: 'Captain Vale', kind: 'persona' })] });
      if (call.method === 'POST' && call.path === `/api/scene-invites/${CODE}/join`)
        return json({ chat_id: 'c9' }, 201);
      return undefined;
    });
    const router = renderRoutes(routes, `/scene/join/${CODE}`);
    expect((await screen.findByTestId('scene-join-name')).textContent).toBe('Mira and Jun');
    expect(screen.getByText('Ilse invites you to a scene')).toBeTruthy();
    expect(screen.getByTestId('scene-join-disclosure').textContent).toContain('AI, not real people');
    const submit = screen.getByTestId('scene-join-submit') as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    await screen.findByRole('option', { name: 'Captain Vale' });
    fireEvent.change(screen.getByTestId('scene-join-persona'), { target: { value: 'p1' } });
    fireEvent.click(screen.getByTestId('scene-join-adult'));
    fireEvent.click(submit);
    await waitFor(() => expect(router.state.location.pathname).toBe('/mira'));
    expect(router.state.location.search).toBe('?chat=c9');
    expect(calls.find((c) => c.path === `/api/scene-invites/${CODE}/join`)?.body).toEqual({
      persona_id: 'p1',
      adult_confirmed: true,
    });
  });

  for (const [status, code, text] of [
    [410, 'invite_expired', 'This invite link has expired. Ask the person who sent it for a new one.'],
    [410, 'invite_revoked', "The scene's owner closed this invite link."],
    [403, 'scene_blocked', "You can't join this scene."],
    [404, 'invite_not_found', "This invite link doesn't exist. Ask for a new one."],
  ] as const) {
    it(`says so in plain words: ${code}`, async () => {
      setTokens('a.b.c', 'd.e.f');
      seedProfile(testProfile());
      fakeApi((call) => (call.path === `/api/scene-invites/${CODE}` ? json({ detail: 'x', code }, status) : undefined));
      renderRoutes(routes, `/scene/join/${CODE}`);
      expect((await screen.findByTestId('scene-join-problem')).textContent).toBe(text);
    });
  }

  it('a full scene refuses the join with its reason', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(testProfile());
    fakeApi((call) => {
      if (call.path === `/api/scene-invites/${CODE}`) return json(preview());
      if (call.path === '/api/bots/mine') return json({ results: [] });
      if (call.path.endsWith('/join')) return json({ detail: 'Full', code: 'scene_full' }, 409);
      return undefined;
    });
    renderRoutes(routes, `/scene/join/${CODE}`);
    fireEvent.click(await screen.findByTestId('scene-join-adult'));
    fireEvent.click(screen.getByTestId('scene-join-submit'));
    expect((await screen.findByTestId('scene-join-error')).textContent).toBe('The scene is full.');
  });

  it('someone already in the scene just opens it', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(testProfile());
    fakeApi((call) =>
      call.path === `/api/scene-invites/${CODE}` ? json(preview({ already_member: true })) : undefined,
    );
    const router = renderRoutes(routes, `/scene/join/${CODE}`);
    fireEvent.click(await screen.findByTestId('scene-join-open'));
    await waitFor(() => expect(router.state.location.search).toBe('?chat=c9'));
  });
});

describe('New group', () => {
  it('needs two characters, then creates the group with the place and persona', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(testProfile());
    const created: unknown[] = [];
    const calls = fakeApi((call) => {
      if (call.path === '/api/bots/available')
        return json({ results: [bot({ id: 'b-jun', slug: 'jun', name: 'Jun' })], next_param: null });
      if (call.path === '/api/bots/mine') return json({ results: [] });
      if (call.method === 'POST' && call.path === '/api/chat/group') return json({ id: 'c9' }, 201);
      return undefined;
    });
    renderRoutes(
      [
        {
          path: '/chat',
          element: (
            <NewGroupDialog
              open
              viewer="u1"
              known={[{ id: 'b-mira', slug: 'mira', name: 'Mira', avatar_url: null }]}
              onClose={() => {}}
              onCreated={(chat) => created.push(chat)}
            />
          ),
        },
      ],
      '/chat',
    );
    const options = await screen.findAllByTestId('scene-pick-option');
    await waitFor(() => expect(screen.getAllByTestId('scene-pick-option')).toHaveLength(2));
    const create = screen.getByTestId('new-group-create') as HTMLButtonElement;
    fireEvent.click(options[0]!);
    expect(create.disabled).toBe(true);
    fireEvent.click(screen.getAllByTestId('scene-pick-option')[1]!);
    expect(screen.getByTestId('scene-pick-count').textContent).toBe('2 of 8 picked');
    fireEvent.change(screen.getByTestId('scene-place'), { target: { value: 'The harbour bar' } });
    fireEvent.click(create);
    await waitFor(() => expect(created).toHaveLength(1));
    expect(calls.find((c) => c.path === '/api/chat/group')?.body).toEqual({
      bot_ids: ['b-mira', 'b-jun'],
      place: 'The harbour bar',
      persona_id: null,
    });
  });
});
