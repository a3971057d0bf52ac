import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { AdminTakedownDetail } from '@reverie/shared';
import { AppProviders } from '../../../../lib/providers';
import { initI18n } from '../../../../lib/i18n';
import { TakedownDetailView } from './takedown-detail';

const detail: AdminTakedownDetail = {
  id: 't1',
  reference: 'TD-0001',
  email: 'owner@example.com',
  status: 'open',
  item_count: 1,
  description: 'My photo used without permission.',
  created_at: '2026-11-24T10:00:00.000Z',
  due_at: '2026-11-26T10:00:00.000Z',
  overdue: false,
  handled_at: null,
  signature: 'Ann Owner',
  locale: 'en',
  resolution: null,
  removed: null,
  handled_by: null,
  items: [
    {
      input: 'https://reverie.example/nova',
      kind: 'character',
      found: true,
      character: { id: 'b1', slug: 'nova', name: 'Nova', description: 'A poet.', author_email: null, pictures: [] },
      media: null,
      message: null,
    },
  ],
};

beforeAll(async () => {
  await initI18n('en');
});

describe('removing a takedown request’s items', () => {
  it('asks in the console’s own dialog (no window.confirm), then sends the removal', async () => {
    const confirmSpy = vi.fn(() => true);
    window.confirm = confirmSpy;
    const posted: { url: string; body: unknown }[] = [];
    globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : null;
      const url = String(request ? request.url : input);
      const method = (request ? request.method : init?.method) ?? 'GET';
      if (method === 'POST') {
        const raw = request ? await request.clone().text() : init?.body;
        posted.push({ url, body: JSON.parse(String(raw)) });
        return new Response(JSON.stringify({ ...detail, status: 'removed' }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        });
      }
      return new Response(JSON.stringify(detail), { status: 200, headers: { 'content-type': 'application/json' } });
    };
    const router = createMemoryRouter([{ path: '*', element: <TakedownDetailView id="t1" /> }], {
      initialEntries: ['/admin/takedown/t1'],
    });
    render(
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>,
    );
    fireEvent.click(await screen.findByTestId('takedown-remove'));
    const dialog = await screen.findByTestId('takedown-remove-confirm', {}, { timeout: 5000 });
    expect(posted).toHaveLength(0);
    fireEvent.click(within(dialog).getByTestId('takedown-remove-confirm-confirm'));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]!.url).toMatch(/\/api\/admin\/takedown\/t1\//);
    expect(posted[0]!.body).toMatchObject({ items: ['https://reverie.example/nova'] });
    expect(confirmSpy).not.toHaveBeenCalled();
  });
});
