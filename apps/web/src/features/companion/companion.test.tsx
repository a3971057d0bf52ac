import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChatCompanion, CompanionSettings } from '@reverie/shared';
import { AlertStack } from '../../components/ui/alerts';
import { initI18n } from '../../lib/i18n';
import { AppProviders } from '../../lib/providers';
import { testQueryClient } from '../../test/profile';
import { CompanionDialog } from './components/companion-dialog';
import { CompanionSettingsForm } from './components/companion-settings';

/** The companion's settings (Settings) and the chat's "She can write to me first" dialog. */

interface Call {
  method: string;
  path: string;
  body: unknown;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function fakeApi(answer: (call: Call) => Response | undefined): Call[] {
  const calls: Call[] = [];
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://x');
    const raw = init?.body;
    const call = {
      method: (init?.method ?? 'GET').toUpperCase(),
      path: url.pathname,
      body: typeof raw === 'string' ? (JSON.parse(raw) as unknown) : null,
    };
    calls.push(call);
    return answer(call) ?? json({ detail: 'Not found', code: 'not_found' }, 404);
  };
  return calls;
}

function renderAt(element: React.ReactNode) {
  const router = createMemoryRouter([{ path: '*', element }], { initialEntries: ['/settings'] });
  render(
    <AppProviders client={testQueryClient()}>
      <RouterProvider router={router} />
      <AlertStack />
    </AppProviders>,
  );
  return router;
}

const defaults: CompanionSettings = {
  time_zone: null,
  quiet_start: '22:00',
  quiet_end: '09:00',
  daily_cap: 3,
  email_digest: false,
  email_verified: true,
};

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => cleanup());

describe('Settings → When characters write first', () => {
  it('starts from the browser’s time zone and the defaults, and saves every field', async () => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const calls = fakeApi((call) => {
      if (call.path === '/api/companion/settings' && call.method === 'GET') return json(defaults);
      if (call.path === '/api/companion/settings' && call.method === 'PATCH')
        return json({ ...defaults, ...(call.body as object) });
      return undefined;
    });
    renderAt(<CompanionSettingsForm />);
    const zoneSelect = await screen.findByTestId<HTMLSelectElement>('companion-zone');
    expect(zoneSelect.value).toBe(zone);
    expect(screen.getByTestId<HTMLInputElement>('companion-quiet-start').value).toBe('22:00');
    expect(screen.getByTestId<HTMLInputElement>('companion-quiet-end').value).toBe('09:00');
    expect(screen.getByTestId<HTMLInputElement>('companion-cap').value).toBe('3');
    fireEvent.change(screen.getByTestId('companion-quiet-start'), { target: { value: '23:00' } });
    fireEvent.change(screen.getByTestId('companion-quiet-end'), { target: { value: '08:30' } });
    fireEvent.change(screen.getByTestId('companion-cap'), { target: { value: '5' } });
    fireEvent.click(screen.getByTestId('companion-digest'));
    fireEvent.click(screen.getByTestId('companion-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({
      time_zone: zone,
      quiet_start: '23:00',
      quiet_end: '08:30',
      daily_cap: 5,
      email_digest: true,
    });
    expect(await screen.findByText('Saved')).toBeTruthy();
  });

  it('says the digest needs a confirmed address, and how to turn everything off', async () => {
    fakeApi((call) =>
      call.path === '/api/companion/settings' ? json({ ...defaults, email_verified: false }) : undefined,
    );
    renderAt(<CompanionSettingsForm />);
    expect(await screen.findByTestId('companion-digest-unverified')).toBeTruthy();
    expect(screen.getByText(/choose “Off” in that chat’s menu/)).toBeTruthy();
  });

  it('a failed load offers a retry', async () => {
    let fail = true;
    fakeApi((call) =>
      call.path === '/api/companion/settings'
        ? fail
          ? json({ code: 'internal_error' }, 500)
          : json(defaults)
        : undefined,
    );
    renderAt(<CompanionSettingsForm />);
    const retry = await screen.findByRole('button', { name: 'Try again' }, { timeout: 5000 });
    fail = false;
    fireEvent.click(retry);
    expect(await screen.findByTestId('companion-settings')).toBeTruthy();
  });
});

describe('the chat’s “She can write to me first”', () => {
  it('is off by default; choosing a frequency turns it on with the browser’s time zone, and Off turns it off', async () => {
    let state: ChatCompanion = { chat_id: 'c1', frequency: 'off', next_at: null };
    const calls = fakeApi((call) => {
      if (call.path === '/api/companion/settings') return json(defaults);
      if (call.path === '/api/chat/c1/companion' && call.method === 'GET') return json(state);
      if (call.path === '/api/chat/c1/companion' && call.method === 'PUT') {
        const { frequency } = call.body as { frequency: ChatCompanion['frequency'] };
        state = { chat_id: 'c1', frequency, next_at: frequency === 'off' ? null : '2026-11-28T10:17:00.000Z' };
        return json(state);
      }
      return undefined;
    });
    renderAt(<CompanionDialog chatId="c1" characterName="Mia" open onClose={() => {}} />);
    const off = await screen.findByTestId<HTMLInputElement>('companion-frequency-off');
    expect(off.checked).toBe(true);
    expect(screen.getByText('Mia can write to you first')).toBeTruthy();
    expect(await screen.findByText(/never writes during your quiet hours \(22:00–09:00\)/)).toBeTruthy();

    fireEvent.click(screen.getByTestId('companion-frequency-daily'));
    await waitFor(() => expect(screen.getByTestId<HTMLInputElement>('companion-frequency-daily').checked).toBe(true));
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.body).toEqual({ frequency: 'daily', time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone });
    expect(screen.getByTestId('companion-next').textContent).toMatch(/Her next message is planned/);

    fireEvent.click(screen.getByTestId('companion-frequency-off'));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(2));
    expect(calls.filter((c) => c.method === 'PUT')[1]!.body).toEqual({ frequency: 'off' });
    await waitFor(() => expect(screen.queryByTestId('companion-next')).toBeNull());
  });
});
