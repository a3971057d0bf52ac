import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { DetailPage } from './detail-page';

describe('DetailPage', () => {
  it('leads back to its list and shows the last failure under the item', async () => {
    const page = (error: string | null) => (
      <DetailPage testId="detail" back="/admin/reports" backLabel="All reports" error={error}>
        <p>The item</p>
      </DetailPage>
    );
    const router = createMemoryRouter([{ path: '*', element: page('It failed.') }]);
    render(<RouterProvider router={router} />);
    const link = await screen.findByRole('link', { name: /All reports/ });
    expect(link.getAttribute('href')).toBe('/admin/reports');
    expect(screen.getByTestId('detail').textContent).toContain('The item');
    expect(screen.getByRole('alert').textContent).toBe('It failed.');
  });
});
