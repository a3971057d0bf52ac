import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppProviders } from '../../../lib/providers';
import { AlertStack } from '../../../components/ui/alerts';
import { initI18n } from '../../../lib/i18n';
import { clearSession, setTokens } from '../../../lib/session';
import type { Message } from '@reverie/shared';
import { ChatPicture } from './chat-picture';
import { takeWaitingAction } from '../../../lib/waiting-action';
import { seedProfile, loadedProfile, testQueryClient, testProfile } from '../../../test/profile';

const profile = testProfile;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** Answers fetches with `answer` and records the called paths. */
function mockFetch(answer: () => Response | Promise<Response>) {
  const calls: string[] = [];
  globalThis.fetch = async (input: RequestInfo | URL) => {
    const url = String(input instanceof Request ? input.url : input);
    calls.push(new URL(url, 'http://x').pathname);
    return answer();
  };
  return calls;
}

function renderPicture(
  message: { id: string; kind: 1 | 2 | 3 | 9999; img_url: string | null; speaker?: Message['speaker'] },
  onUnblurred?: () => void,
) {
  const router = createMemoryRouter(
    [{ path: '/chat', element: <ChatPicture message={message} onUnblurred={onUnblurred} /> }],
    {
      initialEntries: ['/chat'],
    },
  );
  render(
    <AppProviders client={testQueryClient()}>
      <RouterProvider router={router} />
      <AlertStack />
    </AppProviders>,
  );
  return router;
}

const blurred = { id: 'm1', kind: 3 as const, img_url: '/api/media/chats/u1/preview.webp?exp=1&sig=a' };

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => clearSession());

describe('ChatPicture', () => {
  it('unblurs for 3 desires: the balance drops at once and the original replaces the preview', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(profile({ num_tokens: 10 }));
    let release: (r: Response) => void = () => {};
    const calls = mockFetch(() => new Promise<Response>((resolve) => (release = resolve)));
    const unblurred: string[] = [];
    renderPicture(blurred, (() => unblurred.push('m1')) as () => void);

    const button = screen.getByTestId('unblur-button');
    expect(button.textContent).toBe('Unblur for 3 desires');
    fireEvent.click(button);
    await waitFor(() => expect(loadedProfile()?.num_tokens).toBe(7));
    await waitFor(() => expect(calls).toEqual(['/api/unblur/image/m1']));
    release(json({ img_url: '/api/media/originals/u1/original.webp?exp=1&sig=b', num_tokens: 7 }));

    const picture = await screen.findByTestId('chat-picture');
    expect(picture.querySelector('img')?.getAttribute('src')).toBe('/api/media/originals/u1/original.webp?exp=1&sig=b');
    expect(screen.queryByTestId('unblur-button')).toBeNull();
    expect(loadedProfile()?.num_tokens).toBe(7);
    expect(unblurred).toEqual(['m1']);
  });

  it('never shows a negative balance', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(profile({ num_tokens: 2 }));
    mockFetch(() => new Promise<Response>(() => {}));
    renderPicture(blurred);
    fireEvent.click(screen.getByTestId('unblur-button'));
    await waitFor(() => expect(loadedProfile()?.num_tokens).toBe(0));
  });

  it('opens the buy-desires modal on 402 and gives the balance back', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(profile({ num_tokens: 2 }));
    mockFetch(() => json({ detail: 'not enough desires', code: 'not_enough_desires' }, 402));
    const router = renderPicture(blurred);
    fireEvent.click(screen.getByTestId('unblur-button'));
    await waitFor(() => expect(router.state.location.search).toContain('pw=1'));
    expect(new URLSearchParams(router.state.location.search).get('from')).toBe('unblur');
    expect(loadedProfile()?.num_tokens).toBe(2);
    expect(screen.getByTestId('chat-picture-blurred')).toBeTruthy();
  });

  it('402: waits for desires; once the shop’s daily claim covers it, the picture unblurs with no second tap', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(profile({ num_tokens: 0 }));
    let asked = 0;
    mockFetch(() => {
      asked += 1;
      return asked === 1
        ? json({ detail: 'not enough desires', code: 'insufficient_desires' }, 402)
        : json({ img_url: '/api/media/originals/u1/o.webp', num_tokens: 97 });
    });
    const router = renderPicture(blurred);
    fireEvent.click(screen.getByTestId('unblur-button'));
    await waitFor(() => expect(router.state.location.search).toContain('pw=1'));
    const waiting = takeWaitingAction('unblur');
    expect(waiting).toMatchObject({ from: 'unblur', cost: 3 });
    // The claim (in the modal) credited 100: the modal runs the action.
    act(() => waiting!.run());
    await screen.findByTestId('chat-picture');
    expect(asked).toBe(2);
    await waitFor(() => expect(loadedProfile()?.num_tokens).toBe(97));
  });

  it('says "Unblur" to premium users and keeps their balance', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(profile({ has_subscription: true, num_tokens: 50 }));
    let release: (r: Response) => void = () => {};
    mockFetch(() => new Promise<Response>((resolve) => (release = resolve)));
    renderPicture(blurred);
    const button = screen.getByTestId('unblur-button');
    expect(button.textContent).toBe('Unblur');
    fireEvent.click(button);
    await waitFor(() => expect(screen.getByTestId('unblur-button').textContent).toBe('Unblurring…'));
    expect(loadedProfile()?.num_tokens).toBe(50);
    release(json({ img_url: '/api/media/originals/u1/o.webp', num_tokens: 50 }));
    await screen.findByTestId('chat-picture');
  });

  it('shows an error and restores the balance when unblurring fails otherwise', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(profile({ num_tokens: 10 }));
    mockFetch(() => json({ detail: 'Not found', code: 'not_found' }, 404));
    renderPicture(blurred);
    fireEvent.click(screen.getByTestId('unblur-button'));
    await screen.findByText("Couldn't unblur the picture. Try again.");
    expect(loadedProfile()?.num_tokens).toBe(10);
  });

  it('opens a clear picture full-size on click', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(profile());
    renderPicture({ id: 'm2', kind: 2, img_url: '/api/media/bots/b1/gallery-0.png' });
    expect(screen.queryByTestId('unblur-button')).toBeNull();
    fireEvent.click(screen.getByTestId('chat-picture'));
    const full = await screen.findByTestId('chat-picture-full');
    expect(full.getAttribute('src')).toBe('/api/media/bots/b1/gallery-0.png');
  });

  it('reserves a 3:4 box before the file arrives (clear and blurred), so the list does not jump', () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(profile());
    renderPicture({ id: 'm3', kind: 2, img_url: '/api/media/bots/b1/gallery-1.png' });
    renderPicture({ ...blurred, id: 'm4' });
    for (const img of screen.getAllByRole('img')) {
      expect(img.getAttribute('width')).toBe('256');
      expect(img.getAttribute('height')).toBe('341');
      expect(img.className).toContain('aspect-[3/4]');
    }
  });

  it('in a group chat, says which character sent the picture (clear and blurred)', () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(profile());
    const speaker = { kind: 'character' as const, bot_id: 'b2', slug: 'bea', name: 'Bea', avatar_url: null };
    renderPicture({ ...blurred, speaker });
    expect(screen.getByAltText('Blurred picture from Bea')).toBeTruthy();
  });

  it('a clear picture in a group chat is "Picture from" its character', () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(profile());
    renderPicture({
      id: 'm2',
      kind: 2,
      img_url: '/api/media/chats/u1/clear.webp?exp=1&sig=a',
      speaker: { kind: 'character', bot_id: 'b2', slug: 'bea', name: 'Bea', avatar_url: null },
    });
    expect(screen.getByAltText('Picture from Bea')).toBeTruthy();
  });
});
