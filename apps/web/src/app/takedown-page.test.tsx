import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '../lib/providers';
import { routes } from './router';

describe('/takedown page', () => {
  async function openPage() {
    window.localStorage.setItem('age_confirmed', '1');
    const router = createMemoryRouter(routes, { initialEntries: ['/takedown'] });
    render(
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>,
    );
    return screen.findByTestId('takedown-form', {}, { timeout: 5000 });
  }

  it('shows translated field errors and sends nothing while the form is wrong', async () => {
    const sent: string[] = [];
    const fallback = globalThis.fetch;
    globalThis.fetch = async (input, init) => {
      if (String(input).includes('/api/takedown')) sent.push(String(init?.body));
      return fallback(input, init);
    };
    const form = await openPage();
    fireEvent.change(form.querySelector('textarea[name="items"]')!, {
      target: { value: 'https://elsewhere.example/someone' },
    });
    fireEvent.submit(form);
    expect(await screen.findByText('Line 1: This link is not on this site')).toBeTruthy();
    expect(screen.getByText('Please enter your email')).toBeTruthy();
    expect(screen.getByText('Please confirm the statement')).toBeTruthy();
    expect(screen.getByText('Sign with your full name')).toBeTruthy();
    fireEvent.change(form.querySelector('textarea[name="items"]')!, { target: { value: '' } });
    fireEvent.submit(form);
    expect(await screen.findByText('Name at least one link or message id')).toBeTruthy();
    expect(sent).toEqual([]);
  });

  it('sends a valid request and shows its reference', async () => {
    let body: Record<string, unknown> | null = null;
    const fallback = globalThis.fetch;
    globalThis.fetch = async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (url.includes('/api/takedown')) {
        body = JSON.parse(String(init?.body ?? (input as Request).body ?? '{}')) as Record<string, unknown>;
        return new Response(JSON.stringify({ reference: 'TD-7K2M9QXA' }), {
          status: 201,
          headers: { 'content-type': 'application/json' },
        });
      }
      return fallback(input, init);
    };
    const form = await openPage();
    const origin = window.location.origin;
    fireEvent.change(form.querySelector('textarea[name="items"]')!, { target: { value: `${origin}/some-character` } });
    fireEvent.change(form.querySelector('input[name="email"]')!, { target: { value: 'jane@example.test' } });
    fireEvent.change(form.querySelector('textarea[name="description"]')!, { target: { value: 'It shows me.' } });
    fireEvent.change(form.querySelector('input[name="signature"]')!, { target: { value: 'Jane Doe' } });
    fireEvent.click(form.querySelector('input[name="statement"]')!);
    fireEvent.submit(form);
    expect((await screen.findByTestId('takedown-reference', {}, { timeout: 5000 })).textContent).toBe('TD-7K2M9QXA');
    await waitFor(() => expect(body).not.toBeNull());
    expect(body).toMatchObject({
      email: 'jane@example.test',
      urls: [`${origin}/some-character`],
      message_ids: [],
      statement: true,
      signature: 'Jane Doe',
    });
  });
});
