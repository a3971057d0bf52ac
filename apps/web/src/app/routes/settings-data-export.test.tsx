import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DataExport } from '@reverie/shared';
import { initI18n } from '../../lib/i18n';
import { clearSession, setTokens } from '../../lib/session';
import { fakeApi, json, renderRoutes, type Call } from '../../features/chat/test-helpers';
import { seedProfile, testProfile } from '../../test/profile';
import { DownloadMyData } from './settings-data-export';

/** Settings → Download my data: ask, follow while it is prepared, download, try again after a failure. */
const hour = 3600_000;
const archive = (changes: Partial<DataExport> = {}): DataExport => ({
  id: '7d0c5d3e-8c1f-4b7e-9d7a-1a2b3c4d5e6f',
  state: 'preparing',
  requested_at: new Date().toISOString(),
  ready_at: null,
  expires_at: null,
  size: null,
  download_url: null,
  next_allowed_at: new Date(Date.now() + 24 * hour).toISOString(),
  ...changes,
});

function open(answer: (call: Call) => Response | undefined) {
  setTokens('a.b.c', 'd.e.f');
  seedProfile(testProfile({ id: 'u1' }));
  const calls = fakeApi((call) => answer(call));
  renderRoutes([{ path: '/settings', element: <DownloadMyData viewer="u1" /> }], '/settings');
  return calls;
}

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => clearSession());

describe('Settings: download my data', () => {
  it('asks for an archive and shows that it is being prepared', async () => {
    const calls = open((call) => {
      if (call.path === '/api/profile/data_export' && call.method === 'GET') return json({ export: null });
      if (call.path === '/api/profile/data_export' && call.method === 'POST') return json(archive(), 202);
      return undefined;
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Download my data' }));
    expect(await screen.findByText(/Preparing your archive/)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    // No second request while one is being prepared.
    expect(screen.queryByRole('button', { name: 'Download my data' })).toBeNull();
  });

  it('offers the ready archive until it expires, and a new one only the next day', async () => {
    const expires = new Date(Date.now() + 72 * hour).toISOString();
    open((call) =>
      call.path === '/api/profile/data_export'
        ? json({
            export: archive({
              state: 'ready',
              ready_at: new Date().toISOString(),
              expires_at: expires,
              size: 1_234_567,
              download_url: '/api/profile/data_export/x/download?exp=1&sig=abcdefghijklmnopqrstuvwxyz',
            }),
          })
        : undefined,
    );
    const link = await screen.findByTestId('data-export-download');
    expect(link.getAttribute('href')).toContain('/api/profile/data_export/x/download?exp=1&sig=');
    expect(link.textContent).toMatch(/Download ZIP \(1\.2 MB\)/);
    expect(screen.getByText(/The link works until/)).toBeTruthy();
    const again = screen.getByRole('button', { name: 'Prepare a new archive' }) as HTMLButtonElement;
    expect(again.disabled).toBe(true);
    expect(screen.getByText(/You can ask for a new archive after/)).toBeTruthy();
  });

  it('says when it failed and lets the user try again; a refusal for today is said plainly', async () => {
    let posts = 0;
    open((call) => {
      if (call.path === '/api/profile/data_export' && call.method === 'GET')
        return json({ export: archive({ state: 'failed', next_allowed_at: new Date().toISOString() }) });
      if (call.method === 'POST') {
        posts++;
        return json({ code: 'rate_limited', detail: 'Too many requests' }, 429);
      }
      return undefined;
    });
    expect(await screen.findByText(/could not prepare your archive/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(posts).toBe(1));
    expect(await screen.findByText(/already asked for an archive today/)).toBeTruthy();
  });
});
