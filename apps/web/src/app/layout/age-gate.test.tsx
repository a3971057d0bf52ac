import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '@reverie/shared';
import { initI18n } from '../../lib/i18n';
import { storage } from '../../lib/storage';
import { AgeGate, isUngatedPath } from './age-gate';

/** The gate around a page at `path`, as the app's layout puts it around every page. */
function openAt(path: string) {
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <AgeGate>
            <p data-testid="page">the page</p>
          </AgeGate>
        ),
      },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => storage.remove(STORAGE_KEYS.ageConfirmed));

describe('the 18+ age gate (issue 27: the takedown form is open to anyone)', () => {
  it('opens /takedown for a guest who never confirmed the age', () => {
    openAt('/takedown');
    expect(screen.getByTestId('page')).toBeTruthy();
    expect(screen.queryByTestId('age-gate')).toBeNull();
  });

  it('still stands before every other page, and after leaving the takedown form', async () => {
    openAt('/');
    expect(screen.getByTestId('age-gate')).toBeTruthy();
    expect(screen.queryByTestId('page')).toBeNull();
  });

  it('gates again once the guest moves on from /takedown', async () => {
    const router = openAt('/takedown');
    expect(screen.queryByTestId('age-gate')).toBeNull();
    await router.navigate('/explore');
    expect(await screen.findByTestId('age-gate')).toBeTruthy();
  });

  it('names only the takedown form (with or without a trailing slash)', () => {
    expect(isUngatedPath('/takedown')).toBe(true);
    expect(isUngatedPath('/takedown/')).toBe(true);
    for (const path of ['/', '/takedowns', '/luna', '/blog', '/takedown/x']) expect(isUngatedPath(path)).toBe(false);
  });
});
