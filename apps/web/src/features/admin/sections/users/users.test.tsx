import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { AdminUserSummary } from '@reverie/shared';
import { AppProviders } from '../../../../lib/providers';
import { initI18n } from '../../../../lib/i18n';
import { DesiresDialog } from './desires-dialog';
import { UsersSection } from '.';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

interface Call {
  method: string;
  url: URL;
  body: unknown;
}

/** Answers every fetch with `answer(call)` and records the calls. */
function mockFetch(answer: (call: Call) => Response) {
  const calls: Call[] = [];
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : null;
    const url = new URL(String(request ? request.url : input), 'http://x');
    const method = (request ? request.method : init?.method) ?? 'GET';
    const raw = request ? await request.clone().text() : init?.body;
    const call = { method, url, body: raw ? JSON.parse(String(raw)) : null };
    calls.push(call);
    return answer(call);
  };
  return calls;
}

function renderAt(element: React.ReactNode, path = '/admin/users') {
  const router = createMemoryRouter(
    [
      { path: '/admin/users', element },
      { path: '/admin/users/:id', element: <p data-testid="user-page">user page</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

const user = (name: string, email: string): AdminUserSummary => ({
  id: `00000000-0000-4000-8000-${String(name.length).padStart(12, '0')}`,
  name,
  username: name.toLowerCase(),
  email,
  role: 'user',
  created_at: '2026-01-02T10:00:00.000Z',
  banned: false,
  balance: 12,
});

beforeAll(async () => {
  await initI18n('en');
});

describe('grant desires form', () => {
  it('requires a reason, then posts the amount and the reason once', async () => {
    const calls = mockFetch(() => json({ balance: 15, entry_id: 1 }));
    const onClose = vi.fn();
    renderAt(<DesiresDialog userId="u1" mode="grant" balance={5} open onClose={onClose} />);
    const form = await screen.findByTestId('desires-form', {}, { timeout: 5000 });
    fireEvent.change(form.querySelector('input[name="amount"]')!, { target: { value: '10' } });
    fireEvent.submit(form);
    expect(await screen.findByText('Please give a reason.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    expect(onClose).not.toHaveBeenCalled();

    fireEvent.change(form.querySelector('textarea[name="reason"]')!, { target: { value: 'Goodwill for the outage' } });
    fireEvent.submit(form);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.url.pathname).toBe('/api/admin/users/u1/desires');
    expect(posts[0]!.body).toEqual({ amount: 10, reason: 'Goodwill for the outage' });
  });

  it('removes as a negative amount and shows the server refusal in the dialog', async () => {
    const calls = mockFetch(() =>
      json({ detail: 'This would take the balance below zero.', code: 'balance_would_go_negative' }, 409),
    );
    const onClose = vi.fn();
    renderAt(<DesiresDialog userId="u1" mode="remove" balance={5} open onClose={onClose} />);
    const form = await screen.findByTestId('desires-form', {}, { timeout: 5000 });
    fireEvent.change(form.querySelector('input[name="amount"]')!, { target: { value: '9' } });
    fireEvent.change(form.querySelector('textarea[name="reason"]')!, { target: { value: 'Abuse' } });
    fireEvent.submit(form);
    expect(await screen.findByText('This would take the balance below zero.')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ amount: -9, reason: 'Abuse' });
    expect(onClose).not.toHaveBeenCalled();
  });

  it('holds the confirm button without a valid amount', async () => {
    mockFetch(() => json({}));
    renderAt(<DesiresDialog userId="u1" mode="grant" balance={0} open onClose={() => {}} />);
    const button = await screen.findByTestId('desires-form-confirm', {}, { timeout: 5000 });
    expect((button as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('users search', () => {
  it('searches as one types (name, username or e-mail) and opens a user', async () => {
    const ann = user('Ann', 'ann@example.test');
    const bob = user('Bobby', 'bob@example.test');
    const calls = mockFetch(({ url }) => {
      const q = url.searchParams.get('q') ?? '';
      const results = [ann, bob].filter((u) => !q || `${u.name} ${u.email}`.toLowerCase().includes(q.toLowerCase()));
      return json({ results, total: results.length, offset: 0, next_offset: null });
    });
    const router = renderAt(<UsersSection itemId={null} />);
    expect((await screen.findAllByText('bob@example.test', {}, { timeout: 5000 })).length).toBeGreaterThan(0);
    expect(screen.getByTestId('admin-users-total').textContent).toContain('2');

    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'ANN' } });
    await waitFor(() => expect(screen.queryAllByText('bob@example.test')).toHaveLength(0));
    expect(screen.getAllByText('ann@example.test').length).toBeGreaterThan(0);
    const searched = calls.filter((c) => c.url.pathname === '/api/admin/users').map((c) => c.url.searchParams.get('q'));
    expect(searched).toContain('ANN');

    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'nobody' } });
    expect(await screen.findByText('No user matches this search.')).toBeTruthy();

    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'ann' } });
    const [row] = await screen.findAllByTestId('admin-row');
    fireEvent.click(row!);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/admin/users/${ann.id}`));
  });
});
