import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../lib/i18n';
import { clearSession, setTokens } from '../../lib/session';
import { fakeApi, json, renderRoutes, type Call } from '../../features/chat/test-helpers';
import { seedProfile, testProfile } from '../../test/profile';
import { ChangePasswordForm, DeleteAllData } from './settings-account';

const WRONG = { detail: 'Wrong password', code: 'wrong_password' };

function open(element: React.ReactNode, answer: (call: Call) => Response | undefined) {
  setTokens('a.b.c', 'd.e.f');
  seedProfile(testProfile({ id: 'u1' }));
  const calls = fakeApi((call) => answer(call));
  const router = renderRoutes(
    [
      { path: '/settings', element },
      { path: '/', element: <p>home</p> },
    ],
    '/settings',
  );
  return { calls, router };
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => clearSession());

describe('Settings: change password (issue 27)', () => {
  it('checks the new password twice before asking the server', async () => {
    const { calls } = open(<ChangePasswordForm />, () => undefined);
    type('Current password', 'old secret');
    type('New password', 'new secret 1');
    type('Repeat the new password', 'new secret 2');
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Passwords do not match')).toBeTruthy();
    type('New password', '123');
    type('Repeat the new password', '123');
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Password must be 6 or more characters')).toBeTruthy();
    expect(calls.filter((c) => c.path === '/api/profile/password')).toHaveLength(0);
  });

  it("shows the server's wrong password under the current one, then changes it", async () => {
    let attempts = 0;
    const { calls } = open(<ChangePasswordForm />, (call) => {
      if (call.path !== '/api/profile/password') return undefined;
      attempts += 1;
      return attempts === 1
        ? json({ ...WRONG, errors: { current_password: ['Wrong password'] } }, 403)
        : json({ detail: 'Your password has been changed. Your other devices have been signed out.' });
    });
    type('Current password', 'not it');
    type('New password', 'new secret');
    type('Repeat the new password', 'new secret');
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    const error = await screen.findByText('Wrong password');
    expect(error.getAttribute('data-field-error')).toBe('current_password');
    type('Current password', 'old secret');
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText(/Your other devices have been signed out/)).toBeTruthy();
    const sent = calls.filter((c) => c.path === '/api/profile/password');
    expect(sent.map((c) => [c.method, c.body])).toEqual([
      ['POST', { current_password: 'not it', new_password: 'new secret' }],
      ['POST', { current_password: 'old secret', new_password: 'new secret' }],
    ]);
    await waitFor(() => expect((screen.getByLabelText('Current password') as HTMLInputElement).value).toBe(''));
  });
});

describe('Settings: delete all data asks for the password (issue 27)', () => {
  it('needs the password, shows a wrong one, deletes with the right one and leaves for /', async () => {
    let attempts = 0;
    const { calls, router } = open(<DeleteAllData />, (call) => {
      if (call.method === 'DELETE' && call.path === '/api/profile') {
        attempts += 1;
        return attempts === 1
          ? json({ ...WRONG, errors: { password: ['Wrong password'] } }, 403)
          : new Response(null, { status: 204 });
      }
      if (call.path === '/api/token/revoke') return new Response(null, { status: 204 });
      return undefined;
    });
    fireEvent.click(screen.getByRole('button', { name: 'Delete all data' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, delete everything' }));
    expect(await within(dialog).findByText('Please enter your password')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Your password'), { target: { value: 'not it' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, delete everything' }));
    expect(await within(dialog).findByText('Wrong password')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Your password'), { target: { value: 'my secret' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, delete everything' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.body)).toEqual([
      { password: 'not it' },
      { password: 'my secret' },
    ]);
  });
});
