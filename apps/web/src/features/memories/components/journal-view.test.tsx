import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '@reverie/shared';
import { initI18n } from '../../../lib/i18n';
import { json, memoryServer, renderRoutes } from '../test-helpers';
import { MemoriesPage } from './memories-page';

/** The journal tab: off until turned on, then entries by day. */

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => cleanup());

const entry = (id: string, day: string, text: string): JournalEntry => ({
  id,
  bot_id: 'bot1',
  day,
  text,
  memory_ids: [],
  created_at: `${day}T23:00:00.000Z`,
});

function renderJournal(initial: { enabled: boolean; results: JournalEntry[] }) {
  const state = { ...initial };
  const puts: unknown[] = [];
  const server = memoryServer([]);
  const memoryFetch = globalThis.fetch;
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://x');
    if (url.pathname === '/api/characters/bot1/journal') {
      if (init?.method === 'PUT') {
        const body = JSON.parse(String(init.body)) as { enabled: boolean };
        puts.push(body);
        state.enabled = body.enabled;
        return json({ enabled: body.enabled });
      }
      return json({ ...state, next_param: null });
    }
    return memoryFetch(input, init);
  };
  renderRoutes(
    [
      {
        path: '/memories/aiko',
        element: (
          <MemoriesPage viewer="u1" bot={{ id: 'bot1', name: 'Aiko', avatar_url: null }} onBack={() => {}} journal />
        ),
      },
    ],
    '/memories/aiko',
  );
  return { puts, server };
}

describe('the journal', () => {
  it('is off until the user turns it on', async () => {
    const { puts } = renderJournal({ enabled: false, results: [] });
    fireEvent.click(await screen.findByRole('radio', { name: 'Journal' }));
    const toggle = await screen.findByTestId('journal-toggle');
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    expect(screen.getByTestId('journal-empty').textContent).toContain('The journal is off.');
    fireEvent.click(toggle);
    expect(await screen.findByText('Aiko will keep a journal.')).toBeTruthy();
    expect(puts).toEqual([{ enabled: true }]);
    await waitFor(() => expect(screen.getByTestId('journal-toggle').getAttribute('aria-checked')).toBe('true'));
    expect(screen.getByTestId('journal-empty').textContent).toContain('No entries yet.');
    // Switched on, the card says nothing that is only true while it is off.
    expect(screen.getByTestId('journal').textContent).not.toMatch(/stays off|turn it on/i);
  });

  it('shows the entries by day, newest first', async () => {
    renderJournal({
      enabled: true,
      results: [
        entry('j2', '2026-11-26', 'He told me about his sister today.'),
        entry('j1', '2026-11-25', 'We met at the café.'),
      ],
    });
    fireEvent.click(await screen.findByRole('radio', { name: 'Journal' }));
    const entries = within(await screen.findByTestId('journal-entries')).getAllByTestId('journal-entry');
    expect(entries.map((el) => el.querySelector('time')?.textContent)).toEqual(['Nov 26, 2026', 'Nov 25, 2026']);
    expect(entries[0]!.textContent).toContain('He told me about his sister today.');
  });
});
