import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryRouter } from 'react-router';
import type { BotDetail } from '@reverie/shared';
import { AppProviders } from '../../../lib/providers';
import { AlertStack } from '../../../components/ui/alerts';
import { initI18n } from '../../../lib/i18n';
import { testBot } from '../../../test/bot';
import { OwnCharacterReview } from './review-notice';

const bot = (overrides: Partial<BotDetail> = {}): BotDetail =>
  testBot({ review_state: 'rejected', review_reason: 'Copied from another site.', ...overrides });

beforeAll(async () => {
  await initI18n('en');
});

describe("the author's review notice", () => {
  it('shows the author a rejected character with the reason and a way to edit it', () => {
    render(
      <AppProviders>
        <MemoryRouter>
          <OwnCharacterReview bot={bot()} viewer="me" />
        </MemoryRouter>
      </AppProviders>,
    );
    expect(screen.getByTestId('own-character-review').textContent).toContain('Mara was not approved');
    expect(screen.getByTestId('own-character-review-reason').textContent).toBe('Reason: Copied from another site.');
    expect(screen.getByRole('button', { name: 'Edit' })).toBeTruthy();
  });

  it('shows nothing to anyone else, nor for an approved or a private pending character', () => {
    render(
      <AppProviders>
        <MemoryRouter>
          <OwnCharacterReview bot={bot()} viewer="someone-else" />
          <OwnCharacterReview bot={bot({ review_state: 'approved', review_reason: null })} viewer="me" />
          <OwnCharacterReview
            bot={bot({ visibility: 'private', review_state: 'pending', review_reason: null })}
            viewer="me"
          />
        </MemoryRouter>
      </AppProviders>,
    );
    expect(screen.queryByTestId('own-character-review')).toBeNull();
  });

  it('tells the author that an administrator unpublished the character, and why', () => {
    render(
      <AppProviders>
        <MemoryRouter>
          <OwnCharacterReview
            bot={bot({ visibility: 'private', review_reason: 'Copyrighted character' })}
            viewer="me"
          />
        </MemoryRouter>
      </AppProviders>,
    );
    expect(screen.getByTestId('own-character-review').textContent).toContain('Mara is no longer public');
    expect(screen.getByTestId('own-character-review-reason').textContent).toBe('Reason: Copyrighted character');
    expect(screen.getByTestId('own-character-review').textContent).toContain('If you make it public again');
    expect(screen.getByRole('button', { name: 'Make public again' })).toBeTruthy();
  });

  it('"Make public again" opens the edit dialog with Everyone chosen; saving says it went back to review', async () => {
    const sent: unknown[] = [];
    globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : null;
      const raw = request ? await request.clone().text() : init?.body;
      // What the dialog sends (its PATCH); the reads it makes (the client configuration) are not.
      if ((request?.method ?? init?.method ?? 'GET') !== 'GET') sent.push(raw ? JSON.parse(String(raw)) : null);
      return new Response(JSON.stringify(bot({ visibility: 'public', review_state: 'pending', review_reason: null })), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    };
    render(
      <AppProviders>
        <MemoryRouter>
          <OwnCharacterReview
            bot={bot({ visibility: 'private', review_reason: 'Copyrighted character' })}
            viewer="me"
          />
          <AlertStack />
        </MemoryRouter>
      </AppProviders>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Make public again' }));
    const form = await screen.findByTestId('edit-character-form');
    expect(within(form).getByRole('radio', { name: 'Everyone' }).getAttribute('aria-checked')).toBe('true');
    expect(within(form).getByTestId('edit-character-visibility-hint').textContent).toContain(
      'making it public again sends it back to review',
    );
    expect(within(form).getByRole('button', { name: 'Save and send for review' })).toBeTruthy();
    fireEvent.submit(form);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ name: 'Mara', visibility: 'public' });
    expect(
      (await screen.findByText('Saved and sent for review. Others will see Mara once an administrator approves it.'))
        .textContent,
    ).toBeTruthy();
  });
});

describe("the author's edit form (the create form's fields)", () => {
  it('starts from the character, checks like the create form and sends the edited texts', async () => {
    const sent: unknown[] = [];
    globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : null;
      const raw = request ? await request.clone().text() : init?.body;
      // What the dialog sends (its PATCH); the reads it makes (the client configuration) are not.
      if ((request?.method ?? init?.method ?? 'GET') !== 'GET') sent.push(raw ? JSON.parse(String(raw)) : null);
      return new Response(JSON.stringify(bot({ review_state: 'pending', name: 'Marina' })), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    };
    render(
      <AppProviders>
        <MemoryRouter>
          <OwnCharacterReview bot={bot()} viewer="me" />
        </MemoryRouter>
      </AppProviders>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    const form = await screen.findByTestId('edit-character-form');
    const name = within(form).getByRole('textbox', { name: /^Name/ });
    expect((name as HTMLInputElement).value).toBe('Mara');
    expect((within(form).getByRole('spinbutton', { name: /^Age/ }) as HTMLInputElement).value).toBe('31');
    fireEvent.change(name, { target: { value: ' ' } });
    fireEvent.change(within(form).getByRole('spinbutton', { name: /^Age/ }), { target: { value: '16' } });
    fireEvent.submit(form);
    expect(within(form).getByText('Please enter name')).toBeTruthy();
    expect(within(form).getByText('The age must be 18 or more')).toBeTruthy();
    expect(sent).toHaveLength(0);

    fireEvent.change(name, { target: { value: 'Marina ' } });
    fireEvent.change(within(form).getByRole('spinbutton', { name: /^Age/ }), { target: { value: '32' } });
    fireEvent.submit(form);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ name: 'Marina', age: 32, description: 'A lighthouse keeper.', greeting: 'Hi' });
  });
});
