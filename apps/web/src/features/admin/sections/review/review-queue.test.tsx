import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AdminCharacter } from '@reverie/shared';
import { AppProviders } from '../../../../lib/providers';
import { initI18n } from '../../../../lib/i18n';
import { ReviewQueue } from './review-queue';

const pending: AdminCharacter = {
  id: '8d1c4f0e-0000-4000-8000-000000000001',
  slug: 'lena-1a2b3c',
  name: 'Lena',
  age: 27,
  kind: 'character',
  avatar_url: '/api/media/bots/x/avatar.png?exp=1&sig=s',
  description: 'A barista who paints at night.',
  greeting: 'Hi there!',
  occupation: ['artist'],
  personality: ['playful'],
  tags: ['anime'],
  is_official: false,
  visibility: 'public',
  author_id: 'u1',
  voice: 'en-us+f3',
  created_at: '2026-11-01T10:00:00.000Z',
  scenario: 'A small café.',
  gallery: [],
  review_state: 'pending',
  review_reason: null,
  alternate_greetings: [],
  creator_notes: '',
  personality_text: '',
  example_messages: '',
  system_prompt: '',
  post_history_instructions: '',
  reviewed_at: null,
  avatar_explicit: true,
  pictures_reviewed_at: null,
  pictures: [],
  author: { id: 'u1', name: 'Ann', email: 'ann@example.test', locale: 'de' },
  updated_at: '2026-11-01T10:00:00.000Z',
  deleted_at: null,
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function stubApi(calls: { method: string; path: string; body: unknown }[]) {
  let queue = [pending];
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://x'), init);
    const url = new URL(request.url, 'http://x');
    const body = request.method === 'GET' ? null : await request.clone().text();
    calls.push({ method: request.method, path: url.pathname, body: body ? JSON.parse(body) : null });
    if (url.pathname === '/api/admin/review') return json({ results: queue });
    if (url.pathname.endsWith('/reject')) {
      queue = [];
      return json({ ...pending, review_state: 'rejected', review_reason: 'x' });
    }
    return json({ count: queue.length });
  };
}

function renderQueue() {
  const router = createMemoryRouter([{ path: '*', element: <ReviewQueue /> }], { initialEntries: ['/admin/review'] });
  render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
}

beforeAll(async () => {
  await initI18n('en');
});

describe('the review queue', () => {
  it('shows the card, its author and the explicit flag', async () => {
    stubApi([]);
    renderQueue();
    const item = await screen.findByTestId(`review-item-${pending.id}`);
    expect(item.textContent).toContain('Lena, 27');
    expect(item.textContent).toContain('ann@example.test');
    expect(item.textContent).toContain('A barista who paints at night.');
    expect(item.textContent).toContain('Explicit');
    // The explicit avatar stays blurred until clicked.
    expect(item.querySelector('img')!.className).toContain('blur');
  });

  it('rejects only with a reason, and sends that reason', async () => {
    const calls: { method: string; path: string; body: unknown }[] = [];
    stubApi(calls);
    renderQueue();
    fireEvent.click(await screen.findByTestId('review-reject'));
    fireEvent.click(screen.getByTestId('review-reject-confirm'));
    expect(await screen.findByText('Write the reason the author will read.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);

    fireEvent.change(screen.getByTestId('review-reject-reason'), { target: { value: '  Copies another site.  ' } });
    fireEvent.click(screen.getByTestId('review-reject-confirm'));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'POST')).toEqual({
      method: 'POST',
      path: `/api/admin/review/${pending.id}/reject`,
      body: { reason: 'Copies another site.' },
    });
    expect(await screen.findByTestId('review-empty')).toBeTruthy();
  });
});
