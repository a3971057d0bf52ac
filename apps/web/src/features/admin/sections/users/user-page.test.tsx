import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AdminUserDetail } from '@reverie/shared';
import { AppProviders } from '../../../../lib/providers';
import { initI18n } from '../../../../lib/i18n';
import { UsersSection } from '.';
import { formatDate } from '../../../../lib/format';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const ID = '00000000-0000-4000-8000-000000000001';
const detail: AdminUserDetail = {
  id: ID,
  name: 'Ann',
  username: 'ann',
  email: 'ann@example.test',
  age: 30,
  locale: 'de',
  role: 'user',
  created_at: '2026-01-02T10:00:00.000Z',
  is_email_confirmed: true,
  banned_at: null,
  ban_reason: null,
  balance: 42,
  payments: [],
  subscription: null,
  sessions: [
    {
      id: 's1',
      created_at: '2026-01-02T10:00:00.000Z',
      last_used_at: '2026-01-03T10:00:00.000Z',
      expires_at: '2026-02-01T10:00:00.000Z',
      live: true,
    },
  ],
};

function mockApi() {
  const posts: { path: string; body: unknown }[] = [];
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : null;
    const url = new URL(String(request ? request.url : input), 'http://x');
    const method = (request ? request.method : init?.method) ?? 'GET';
    if (method === 'POST') {
      const raw = request ? await request.clone().text() : String(init?.body ?? '');
      posts.push({ path: url.pathname, body: JSON.parse(raw) });
      if (url.pathname.endsWith('/delete'))
        return json(
          { detail: 'Administrators cannot ban, delete or demote their own account.', code: 'admin_self_action' },
          409,
        );
      return json({ ok: true });
    }
    if (url.pathname === `/api/admin/users/${ID}`) return json(detail);
    if (url.pathname === '/api/admin/ledger')
      return json({
        results: [
          {
            id: 1,
            user_id: ID,
            user_email: detail.email,
            amount: 42,
            reason: 'adjustment',
            reference: 'Welcome',
            created_at: '2026-01-02T10:00:00.000Z',
          },
        ],
        next_param: null,
      });
    return json({ detail: 'Not found', code: 'not_found' }, 404);
  };
  return posts;
}

beforeAll(async () => {
  await initI18n('en');
});

function renderUser() {
  const router = createMemoryRouter(
    [
      { path: '/admin/users/:id', element: <UsersSection itemId={ID} /> },
      { path: '/admin/users', element: <p>list</p> },
    ],
    { initialEntries: [`/admin/users/${ID}`] },
  );
  render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
}

describe("a user's page", () => {
  it('shows the profile, balance, ledger and sessions', async () => {
    mockApi();
    renderUser();
    expect((await screen.findByTestId('admin-user-name', {}, { timeout: 5000 })).textContent).toBe('Ann');
    expect(screen.getByTestId('admin-user-balance').textContent).toBe('42');
    expect((await screen.findAllByText('Welcome')).length).toBeGreaterThan(0);
    expect(screen.getAllByText('Live').length).toBeGreaterThan(0);
  });

  it('a trial shows "free trial until" the date the subscriber sees, and its $0 payment as a trial (issue 26)', async () => {
    mockApi();
    const view = {
      plan: 'monthly' as const,
      status: 'trialing' as const,
      trial_ends_at: '2026-11-30T12:00:00.000Z',
      renews_at: '2026-12-30T12:00:00.000Z',
      ends_at: null,
      provider: 'sandbox' as const,
      can_resume: false,
    };
    const withTrial: AdminUserDetail = {
      ...detail,
      subscription: {
        id: 'sub1',
        provider: 'sandbox',
        plan: 'monthly',
        status: 'trialing',
        // The row's period runs past the trial (the sandbox's first paid month).
        current_period_end: '2026-12-30T12:00:00.000Z',
        cancel_at_period_end: false,
        trial_ends_at: view.trial_ends_at,
        view,
      },
      payments: [
        {
          id: 'p1',
          user_id: ID,
          user_email: detail.email,
          provider: 'sandbox',
          provider_ref: null,
          plan: 'monthly',
          amount_cents: 0,
          currency: 'usd',
          status: 'paid',
          refund_reason: null,
          trial_days: 3,
          refunded_cents: 0,
          created_at: '2026-11-27T12:00:00.000Z',
          updated_at: '2026-11-27T12:00:00.000Z',
        },
      ],
    };
    const api = globalThis.fetch;
    globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) =>
      new URL(String(input instanceof Request ? input.url : input), 'http://x').pathname === `/api/admin/users/${ID}`
        ? json(withTrial)
        : api(input, init);
    renderUser();
    const line = await screen.findByTestId('admin-user-subscription', {}, { timeout: 5000 });
    // The same rule and date as Settings (subscriptionMilestone): Nov 30, not the row's Dec 30.
    expect(line.textContent).toBe(`monthly, free trial until ${formatDate(view.trial_ends_at, 'en')}`);
    expect(line.textContent).not.toContain('Dec');
    expect(screen.getAllByText('Free trial, 3 days')[0]!.parentElement!.textContent).toMatch(/^\$0(\.00)?Free trial/);
    // Its status says the trial started: nothing was paid.
    expect(screen.getAllByText('Trial started').length).toBeGreaterThan(0);
    expect(screen.queryByText('Paid')).toBeNull();
  });

  it('bans only with a reason, and posts it', async () => {
    const posts = mockApi();
    renderUser();
    fireEvent.click(await screen.findByTestId('action-ban', {}, { timeout: 5000 }));
    const form = await screen.findByTestId('confirm-action', {}, { timeout: 5000 });
    fireEvent.submit(form);
    expect(await within(form).findByText('Please give a reason.')).toBeTruthy();
    expect(posts).toEqual([]);
    fireEvent.change(form.querySelector('textarea')!, { target: { value: 'Spam' } });
    fireEvent.submit(form);
    await waitFor(() => expect(posts).toEqual([{ path: `/api/admin/users/${ID}/ban`, body: { reason: 'Spam' } }]));
  });

  it("shows the server's refusal in the dialog (delete)", async () => {
    mockApi();
    renderUser();
    fireEvent.click(await screen.findByTestId('action-delete', {}, { timeout: 5000 }));
    const form = await screen.findByTestId('confirm-action', {}, { timeout: 5000 });
    fireEvent.change(form.querySelector('textarea')!, { target: { value: 'Asked by e-mail' } });
    fireEvent.submit(form);
    expect(
      await within(form).findByText('Administrators cannot ban, delete or demote their own account.'),
    ).toBeTruthy();
  });
});
