import { fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '../lib/providers';
import { routes } from './router';

/** The sign-up form runs the shared schema: a username with control characters is a translated field error. */
describe('sign-up form input rules', () => {
  it('shows the control-characters error under the username, translated', async () => {
    window.localStorage.setItem('age_confirmed', '1');
    const router = createMemoryRouter(routes, { initialEntries: ['/?signup=1'] });
    render(
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>,
    );
    const form = await screen.findByTestId('signup-form', {}, { timeout: 5000 });
    const username = form.querySelector<HTMLInputElement>('input[name="username"]')!;
    fireEvent.input(username, { target: { value: 'ann\u0001bob' } });
    fireEvent.submit(form);
    expect(await screen.findByText('This field cannot contain control or invisible characters')).toBeTruthy();
  });
});
