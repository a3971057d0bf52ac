import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../../lib/providers';
import { AlertStack } from '../../../components/ui/alerts';
import { initI18n } from '../../../lib/i18n';
import { clearSession, setTokens } from '../../../lib/session';
import { loadedProfile, seedProfile, testProfile, testQueryClient } from '../../../test/profile';
import { peekWaitingAction, takeWaitingAction } from '../../../lib/waiting-action';
import { TransformStudio } from './transform-studio';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** Answers each API call by its method and path; records them. */
function mockApi(answers: Record<string, (call: number) => Response>) {
  const calls: string[] = [];
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : null;
    const method = (request?.method ?? init?.method ?? 'GET').toUpperCase();
    const path = new URL(String(request?.url ?? input), 'http://x').pathname;
    const key = `${method} ${path}`;
    calls.push(key);
    const answer = answers[key];
    return answer ? answer(calls.filter((c) => c === key).length) : json({ results: [] });
  };
  return calls;
}

function renderStudio(props: Partial<Parameters<typeof TransformStudio>[0]> = {}) {
  const handlers = { onRequireAuth: vi.fn(), onNeedDesires: vi.fn() };
  const router = createMemoryRouter(
    [
      {
        path: '/transform',
        element: <TransformStudio isAuthorized isPremium={false} {...handlers} {...props} />,
      },
    ],
    { initialEntries: ['/transform'] },
  );
  render(
    <AppProviders client={testQueryClient()}>
      <RouterProvider router={router} />
      <AlertStack />
    </AppProviders>,
  );
  return handlers;
}

const photo = () => new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])], 'me.jpg', { type: 'image/jpeg' });
const choose = (file: File) => fireEvent.change(screen.getByTestId('transform-file'), { target: { files: [file] } });
const id = '00000000-0000-4000-8000-000000000001';

beforeAll(async () => {
  await initI18n('en');
  URL.createObjectURL = () => 'blob:photo';
  URL.revokeObjectURL = () => undefined;
});
afterEach(() => {
  clearSession();
  window.sessionStorage.clear();
  takeWaitingAction('transform');
});

describe('TransformStudio', () => {
  it('asks a guest to sign up or log in instead of choosing a file', () => {
    const handlers = renderStudio({ isAuthorized: false });
    fireEvent.click(screen.getByTestId('transform-choose'));
    expect(handlers.onRequireAuth).toHaveBeenCalledTimes(1);
  });

  it('needs the rights attestation, then uploads, verifies and pays; the balance is the answer’s', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(testProfile({ num_tokens: 12 }));
    const calls = mockApi({
      'POST /api/image_transform/preview': () =>
        json({ previews: [{ style: 'anime', data_url: 'data:image/webp;base64,AA==' }] }),
      'POST /api/image_transform': () => json({ id, state: 'uploaded' }, 201),
      'POST /api/image_transform/verify': () => json({ id, state: 'verified' }),
      'POST /api/image_transform/payment': () => json({ id, state: 'processing', num_tokens: 7 }),
      [`GET /api/image_transform/${id}/`]: () =>
        json({
          id,
          state: 'processing',
          style: 'comic',
          result_url: null,
          original_url: null,
          charged: 5,
          error: null,
          created_at: '2026-11-24T09:00:00Z',
        }),
    });
    renderStudio();
    choose(photo());
    await waitFor(() => expect(calls).toContain('POST /api/image_transform/preview'));
    fireEvent.click(screen.getByTestId('style-comic'));
    expect(screen.getByTestId('transform-pay').textContent).toContain('Transform for 5 desires');
    fireEvent.click(screen.getByTestId('transform-pay'));
    expect(await screen.findByText('Please confirm that you have the rights to this photo.')).toBeTruthy();
    expect(calls).not.toContain('POST /api/image_transform');

    fireEvent.click(screen.getByTestId('transform-rights'));
    fireEvent.click(screen.getByTestId('transform-pay'));
    await screen.findByTestId('transform-processing');
    expect(calls.filter((c) => c.startsWith('POST'))).toEqual([
      'POST /api/image_transform/preview',
      'POST /api/image_transform',
      'POST /api/image_transform/verify',
      'POST /api/image_transform/payment',
    ]);
    expect(loadedProfile()?.num_tokens).toBe(7);
  });

  it('opens the buy-desires modal on 402 and pays again without uploading again', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(testProfile({ num_tokens: 2 }));
    const calls = mockApi({
      'POST /api/image_transform/preview': () => json({ previews: [] }),
      'POST /api/image_transform': () => json({ id, state: 'uploaded' }, 201),
      'POST /api/image_transform/verify': () => json({ id, state: 'verified' }),
      'POST /api/image_transform/payment': (n) =>
        n === 1
          ? json({ detail: 'Not enough desires', code: 'insufficient_desires' }, 402)
          : json({ id, state: 'processing', num_tokens: 0 }),
    });
    const handlers = renderStudio();
    choose(photo());
    fireEvent.click(screen.getByTestId('transform-rights'));
    await waitFor(() => expect(calls).toContain('POST /api/image_transform/preview'));
    fireEvent.click(screen.getByTestId('transform-pay'));
    await waitFor(() => expect(handlers.onNeedDesires).toHaveBeenCalledTimes(1));
    fireEvent.click(screen.getByTestId('transform-pay'));
    await screen.findByTestId('transform-processing');
    expect(calls.filter((c) => c === 'POST /api/image_transform')).toHaveLength(1);
    expect(calls.filter((c) => c === 'POST /api/image_transform/payment')).toHaveLength(2);
  });

  it('says a refused photo cannot be transformed (422 from the photo check)', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(testProfile({ num_tokens: 20 }));
    mockApi({
      'POST /api/image_transform/preview': () =>
        json({ detail: 'Inappropriate content', code: 'inappropriate_content' }, 422),
    });
    renderStudio();
    choose(photo());
    expect((await screen.findByTestId('transform-refused')).textContent).toContain("This photo can't be transformed");
    expect((screen.getByTestId('transform-pay') as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows premium as free', () => {
    renderStudio({ isPremium: true });
    expect(screen.getByTestId('transform-pay').textContent).toContain('Transform for free with Premium');
  });

  it('402: the photo, the style and the rights tick survive the trip to the shop and a reload', async () => {
    setTokens('a.b.c', 'd.e.f');
    seedProfile(testProfile({ num_tokens: 0 }));
    const stored = {
      id,
      state: 'verified',
      style: 'comic',
      result_url: null,
      original_url: '/api/media/transforms/u/x.webp?sig=1',
      charged: 0,
      error: null,
      created_at: new Date().toISOString(),
    };
    const calls = mockApi({
      'POST /api/image_transform/preview': () => json({ previews: [] }),
      'POST /api/image_transform': () => json({ id, state: 'uploaded' }, 201),
      'POST /api/image_transform/verify': () => json({ id, state: 'verified' }),
      'POST /api/image_transform/payment': (n) =>
        n === 1
          ? json({ detail: 'Not enough desires', code: 'insufficient_desires' }, 402)
          : json({ id, state: 'processing', num_tokens: 345 }),
      [`GET /api/image_transform/${id}/`]: () => json(stored),
      'GET /api/media/transforms/u/x.webp': () =>
        new Response(new Uint8Array([1, 2, 3]), { headers: { 'content-type': 'image/webp' } }),
    });
    const handlers = renderStudio();
    choose(photo());
    fireEvent.click(screen.getByTestId('style-comic'));
    fireEvent.click(screen.getByTestId('transform-rights'));
    await waitFor(() => expect(calls).toContain('POST /api/image_transform/preview'));
    fireEvent.click(screen.getByTestId('transform-pay'));
    await waitFor(() => expect(handlers.onNeedDesires).toHaveBeenCalledTimes(1));
    // The daily claim in the shop may run it again at once.
    expect(peekWaitingAction('transform')).toMatchObject({ cost: 5 });
    expect(JSON.parse(window.sessionStorage.getItem('transform-draft')!)).toEqual({ style: 'comic', rights: true, id });

    // The checkout page and back (or a reload): a new page, the same tab.
    cleanup();
    renderStudio();
    expect(await screen.findByTestId('transform-photo')).toBeTruthy();
    expect(screen.getByTestId('style-comic').getAttribute('aria-checked')).toBe('true');
    expect((screen.getByTestId('transform-rights') as HTMLInputElement).checked).toBe(true);
    await waitFor(() => expect((screen.getByTestId('transform-pay') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('transform-pay'));
    await screen.findByTestId('transform-processing');
    // Paid without uploading the photo again.
    expect(calls.filter((c) => c === 'POST /api/image_transform')).toHaveLength(1);
    expect(calls.filter((c) => c === 'POST /api/image_transform/payment')).toHaveLength(2);
    await waitFor(() => expect(window.sessionStorage.getItem('transform-draft')).toBeNull());
  });
});
