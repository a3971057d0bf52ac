import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PromptTrace } from '@reverie/shared';
import { initI18n } from '../../../lib/i18n';
import { clearSession, setTokens } from '../../../lib/session';
import { fakeApi, json, renderRoutes } from '../test-helpers';
import { ChatLorebooksDialog, PromptTraceDialog } from './lore-dialogs';

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => clearSession());

describe('the chat’s lorebooks and what went into the prompt', () => {
  it('attaches the user’s books to the chat; a global one is always on', async () => {
    setTokens('a.b.c', 'd.e.f');
    let closed = 0;
    const calls = fakeApi((call) => {
      if (call.path !== '/api/chat/c1/lorebooks') return undefined;
      if (call.method === 'PUT') return json({ books: [] });
      return json({
        books: [
          { id: 'b1', name: 'Everywhere', global: true, attached: false, entry_count: 2 },
          { id: 'b2', name: 'Harbour', global: false, attached: false, entry_count: 5 },
        ],
      });
    });
    renderRoutes([{ path: '/', element: <ChatLorebooksDialog chatId="c1" open onClose={() => (closed += 1)} /> }], '/');
    const toggles = (await screen.findAllByTestId('chat-lorebook-toggle')) as HTMLInputElement[];
    expect(toggles[0]!.checked).toBe(true);
    expect(toggles[0]!.disabled).toBe(true);
    fireEvent.click(toggles[1]!);
    fireEvent.click(screen.getByTestId('chat-lorebooks-save'));
    await waitFor(() => expect(closed).toBe(1));
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ lorebook_ids: ['b2'] });
  });

  it('shows which entries fired, why and where they went, the author’s note and the memories', async () => {
    setTokens('a.b.c', 'd.e.f');
    const trace: PromptTrace = {
      message_id: 'm9',
      created_at: '2026-11-27T00:00:00.000Z',
      lore: [
        {
          book_id: 'b1',
          book_name: 'Harbour',
          entry_id: 'e1',
          label: 'Lantern',
          constant: false,
          key: 'lantern',
          secondary_key: null,
          probability: 100,
          roll: null,
          status: 'inserted',
          position: 'after_char',
          depth: 4,
          tokens: 9,
        },
        {
          book_id: 'b1',
          book_name: 'Harbour',
          entry_id: 'e2',
          label: 'Bell',
          constant: false,
          key: 'bell',
          secondary_key: null,
          probability: 30,
          roll: 71.4,
          status: 'lost_roll',
          position: 'after_char',
          depth: 4,
          tokens: 0,
        },
        {
          book_id: 'b1',
          book_name: 'Harbour',
          entry_id: 'e3',
          label: 'Tide',
          constant: true,
          key: null,
          secondary_key: null,
          probability: 100,
          roll: null,
          status: 'inserted',
          position: 'at_depth',
          depth: 1,
          tokens: 5,
        },
      ],
      lore_omitted: 4210,
      author_note: { text: 'Slow and quiet.', depth: 2 },
      memories: 3,
      summary: false,
      history_messages: 12,
      truncated: false,
    };
    fakeApi((call) => (call.path === '/api/chat/c1/messages/m9/prompt' ? json(trace) : undefined));
    renderRoutes([{ path: '/', element: <PromptTraceDialog chatId="c1" messageId="m9" onClose={() => {}} /> }], '/');
    expect(await screen.findByText('Lantern')).toBeTruthy();
    // Where an included entry went; an entry that lost its roll went nowhere.
    expect(screen.getByText('keyword “lantern” · after the character')).toBeTruthy();
    expect(screen.getByText('always included · at depth 1')).toBeTruthy();
    expect(screen.getByText('keyword “bell” · rolled 71 for a 30% chance')).toBeTruthy();
    expect(screen.getByText('Lost the roll')).toBeTruthy();
    expect(screen.getByText('Depth 2: Slow and quiet.')).toBeTruthy();
    expect(screen.getByText('3 long-term memories')).toBeTruthy();
    expect(screen.getByText('12 messages of the chat')).toBeTruthy();
    // A trace lists at most 100 entries: the rest are counted.
    expect(screen.getByTestId('trace-lore-omitted').textContent).toBe(
      'And 4210 more entries that fired but did not go in.',
    );
  });
});
