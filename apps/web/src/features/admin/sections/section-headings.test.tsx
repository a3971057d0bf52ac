import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppProviders } from '../../../lib/providers';
import { initI18n } from '../../../lib/i18n';
import { PaymentsSection } from './payments';
import { TakedownSection } from './takedown';

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

function renderSection(element: React.ReactNode) {
  globalThis.fetch = async () => json({ items: [], results: [], next_param: null, next_cursor: null });
  const router = createMemoryRouter([{ path: '*', element }], { initialEntries: ['/admin/x'] });
  render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
}

describe("the console's sections are headed like the others (one h1 on the page, an h2 per section)", () => {
  beforeAll(async () => {
    await initI18n('en');
  });

  it.each([
    ['Takedown', <TakedownSection itemId={null} key="t" />],
    ['Payments and ledger', <PaymentsSection itemId={null} key="p" />],
  ])('%s', async (title, element) => {
    renderSection(element);
    const heading = screen.getByRole('heading', { level: 2, name: title });
    expect(screen.getByRole('region', { name: title }).contains(heading)).toBe(true);
    // The page's own title (the admin route's Page) is its only h1.
    expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
  });
});
