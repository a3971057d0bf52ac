import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AdminOverview } from '@reverie/shared';
import { AppProviders } from '../../../../lib/providers';
import { initI18n } from '../../../../lib/i18n';
import { OverviewSection } from '.';

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

function overview(days: number): AdminOverview {
  const series = Array.from({ length: days }, (_, i) => ({
    day: new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10),
    signups: i,
    active_users: 1,
    messages: 2,
    calls: 0,
    call_minutes: 0,
    paying_users: 0,
    crisis: 0,
    minors_input: 0,
    minors_output: 0,
  }));
  return {
    days,
    from: series[0]!.day,
    to: series.at(-1)!.day,
    totals: {
      signups: days * 10,
      active_users: 3,
      messages: 2 * days,
      calls: 1,
      call_minutes: 4,
      paying_users: 2,
      crisis: 1,
      minors_input: 0,
      minors_output: 0,
    },
    revenue: [
      { currency: 'usd', amount_cents: 1299, payments: 1 },
      { currency: 'eur', amount_cents: 500, payments: 1 },
    ],
    funnel: { visitors: 100, signups: 10, first_message: 5, purchase: 1 },
    series,
    attention: {
      takedown_overdue: 2,
      takedown_open: 3,
      message_reports_open: 0,
      support_reports_open: 1,
      characters_pending: 4,
    },
  };
}

beforeAll(async () => {
  await initI18n('en');
});

describe('the overview', () => {
  it('shows totals, revenue per currency, the overdue takedowns in red, and switches ranges', async () => {
    const asked: string[] = [];
    globalThis.fetch = async (input: RequestInfo | URL) => {
      const url = new URL(String(input instanceof Request ? input.url : input), 'http://x');
      asked.push(url.searchParams.get('days') ?? '');
      return json(overview(Number(url.searchParams.get('days'))));
    };
    const router = createMemoryRouter([{ path: '/admin', element: <OverviewSection itemId={null} /> }], {
      initialEntries: ['/admin'],
    });
    render(
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>,
    );
    expect((await screen.findByTestId('stat-signups', {}, { timeout: 5000 })).textContent).toContain('300');
    expect(screen.getByTestId('stat-revenue').textContent).toContain('$12.99');
    expect(screen.getByTestId('stat-revenue').textContent).toContain('€5.00');
    expect(screen.getByTestId('attention-takedown_overdue').getAttribute('data-urgent')).toBe('true');
    expect(screen.getByTestId('attention-message_reports').getAttribute('data-urgent')).toBeNull();
    expect(asked).toEqual(['30']);
    fireEvent.click(screen.getByTestId('admin-range-7'));
    await waitFor(() => expect(screen.getByTestId('stat-signups').textContent).toContain('70'));
    expect(asked).toContain('7');
    expect(screen.getByTestId('chart-signups').querySelectorAll('g')).toHaveLength(7);
  });
});
