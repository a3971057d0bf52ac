import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BotDetail } from '@reverie/shared';
import { initI18n } from '../../lib/i18n';
import { clearSession, setTokens } from '../../lib/session';
import { bot, chat, fakeApi, json, message, renderRoutes, type Call } from '../../features/chat/test-helpers';
import { seedProfile, testProfile } from '../../test/profile';
import { testBot } from '../../test/bot';
import { Component as CharacterChat } from './character-chat';

/** Aiko, written by the member u1 (Ann), private and never reviewed. */
const own = (changes: Partial<BotDetail> = {}) =>
  testBot({
    ...bot(),
    is_official: false,
    author_id: 'u1',
    visibility: 'private',
    review_state: 'pending',
    scenario: 'A rainy café.',
    ...changes,
  });

/**
 * The member's chat with the character at `/aiko?chat=c1`; `answer` takes the other calls. The
 * character's page answers what the last successful PATCH answered.
 */
function openChat(detail: BotDetail, answer: (call: Call) => Response | undefined = () => undefined, viewer = 'u1') {
  setTokens('a.b.c', 'd.e.f');
  seedProfile(testProfile({ id: viewer }));
  let current = detail;
  const calls = fakeApi(async (call) => {
    if (call.path === '/api/chat/c1') return json(chat({ bot: bot({ ...current }) }));
    if (call.path === '/api/chat/history/c1')
      return json({ results: [message('g1', { text: 'Hi! Coffee or tea?' })], next_param: null });
    if (call.method === 'GET' && call.path === '/api/bot/aiko') return json(current);
    const response = answer(call) ?? json({ detail: 'Not found', code: 'not_found' }, 404);
    if (response.ok && call.method === 'PATCH') current = (await response.clone().json()) as BotDetail;
    return response;
  });
  renderRoutes([{ path: '/:slug', element: <CharacterChat /> }], '/aiko?chat=c1');
  return calls;
}

const menuItems = async () => {
  fireEvent.click(await screen.findByTestId('chat-menu'));
  return screen.getAllByRole('menuitem').map((item) => item.textContent);
};

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => clearSession());

describe('the author edits their character from its page', () => {
  it('offers its author "Edit character" under the intro and in the menu', async () => {
    openChat(own());
    expect((await screen.findByTestId('edit-character')).textContent).toBe('Edit character');
    expect(await menuItems()).toContain('Edit character');
  });

  it('offers nothing to another member', async () => {
    openChat(own({ visibility: 'public', review_state: 'approved' }), undefined, 'u2');
    await screen.findByText('Hi! Coffee or tea?');
    await waitFor(() => expect(screen.getByTestId('chat-title').textContent).toBe('Aiko'));
    expect(screen.queryByTestId('edit-character')).toBeNull();
    expect(await menuItems()).not.toContain('Edit character');
  });

  it('offers nothing on an official character', async () => {
    openChat(own({ is_official: true, author_id: null, visibility: 'public', review_state: 'approved' }));
    await screen.findByText('Hi! Coffee or tea?');
    expect(await menuItems()).not.toContain('Edit character');
    expect(screen.queryByTestId('edit-character')).toBeNull();
  });

  it('makes a private character public: sends the texts with the visibility, says it went to review, reloads the page', async () => {
    const calls = openChat(own(), (call) =>
      call.method === 'PATCH' && call.path === '/api/bot/aiko'
        ? json(own({ ...(call.body as Partial<BotDetail>), review_state: 'pending' }))
        : undefined,
    );
    fireEvent.click(await screen.findByTestId('edit-character'));
    const form = await screen.findByTestId('edit-character-form');
    const visibility = within(form).getByTestId('edit-character-visibility');
    expect(within(visibility).getByRole('radio', { name: 'Only me' }).getAttribute('aria-checked')).toBe('true');
    expect(within(form).getByTestId('edit-character-visibility-hint').textContent).toContain('Only you can see it');
    fireEvent.click(within(visibility).getByRole('radio', { name: 'Everyone' }));
    expect(within(form).getByTestId('edit-character-visibility-hint').textContent).toContain('reviewed first');
    expect(within(form).getByRole('button', { name: 'Save and send for review' })).toBeTruthy();
    fireEvent.change(within(form).getByRole('textbox', { name: /^Name/ }), { target: { value: 'Aiko Mori ' } });
    const before = calls.filter((c) => c.method === 'GET' && c.path === '/api/bot/aiko').length;
    fireEvent.submit(form);

    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({
      name: 'Aiko Mori',
      age: 24,
      description: 'A barista who loves rainy days.',
      occupation: [],
      personality: [],
      greeting: 'Hi! Coffee or tea?',
      scenario: 'A rainy café.',
      example_messages: '',
      // The form's style: realistic when the character has no style tag.
      tags: ['realistic'],
      visibility: 'public',
    });
    expect(
      (
        await screen.findByText(
          'Saved and sent for review. Others will see Aiko Mori once an administrator approves it.',
        )
      ).textContent,
    ).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('edit-character-form')).toBeNull());
    // The page (and with it the notice) and the chat are loaded again.
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'GET' && c.path === '/api/bot/aiko').length).toBeGreaterThan(before),
    );
    expect((await screen.findByTestId('own-character-review')).textContent).toContain('is waiting for a review');
  });

  it("shows the API's field errors at their fields and other errors above the button, keeping what was typed", async () => {
    let answer = json({ detail: 'Validation failed', code: 'validation_error', errors: { name: ['Too long'] } }, 400);
    openChat(own({ visibility: 'public', review_state: 'approved' }), (call) =>
      call.method === 'PATCH' ? answer : undefined,
    );
    fireEvent.click(await screen.findByTestId('edit-character'));
    const form = await screen.findByTestId('edit-character-form');
    expect(within(form).getByRole('button', { name: 'Save' })).toBeTruthy();
    const greeting = form.querySelector('textarea[name="greeting"]') as HTMLTextAreaElement;
    fireEvent.change(greeting, { target: { value: 'Welcome in!' } });
    fireEvent.submit(form);
    expect((await within(form).findByText('Too long')).textContent).toBe('Too long');
    expect(greeting.value).toBe('Welcome in!');

    answer = json({ detail: 'Inappropriate content', code: 'inappropriate_content' }, 422);
    fireEvent.submit(form);
    expect((await within(form).findByRole('alert')).textContent).toBeTruthy();
    expect(screen.getByTestId('edit-character-form')).toBeTruthy();
    expect(greeting.value).toBe('Welcome in!');
  });

  it('says a public character is listed at once when the server approves characters automatically', async () => {
    openChat(own(), (call) =>
      call.path === '/api/config'
        ? json({
            edition: 'reverie',
            community_url: null,
            support_email: 'support@example.test',
            rewardful_key: null,
            calls: { available: false, reason: 'stt_unavailable' },
            auto_approve_characters: true,
          })
        : call.method === 'PATCH'
          ? json(own({ ...(call.body as Partial<BotDetail>), review_state: 'approved' }))
          : undefined,
    );
    fireEvent.click(await screen.findByTestId('edit-character'));
    const form = await screen.findByTestId('edit-character-form');
    fireEvent.click(within(form).getByRole('radio', { name: 'Everyone' }));
    await waitFor(() =>
      expect(within(form).getByTestId('edit-character-visibility-hint').textContent).toContain(
        'checks it automatically',
      ),
    );
    expect(within(form).getByRole('button', { name: 'Save' })).toBeTruthy();
    fireEvent.submit(form);
    expect(
      (await screen.findByText('Saved. Aiko is public: everyone can find it in Explore.')).textContent,
    ).toBeTruthy();
  });
});
