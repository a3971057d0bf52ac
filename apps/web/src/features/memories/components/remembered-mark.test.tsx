import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { memory, memoryServer, renderRoutes } from '../test-helpers';
import { RememberedMark } from './remembered-mark';

/** The "remembered" mark under a reply: the memories in its prompt, those it drew on highlighted. */

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => cleanup());

function renderMark(memories: { in_prompt: string[]; drew_on: string[] } | undefined) {
  return renderRoutes(
    [
      {
        path: '/aiko',
        element: (
          <div data-testid="reply">
            <RememberedMark memories={memories} viewer="u1" slug="aiko" name="Aiko" />
          </div>
        ),
      },
      { path: '/memories/aiko', element: <p data-testid="memory-page">memory page</p> },
    ],
    '/aiko',
  );
}

describe('the remembered mark', () => {
  it('is not shown for a reply whose prompt held no memory', () => {
    memoryServer([]);
    renderMark(undefined);
    expect(screen.queryByTestId('remembered-mark')).toBeNull();
    cleanup();
    renderMark({ in_prompt: [], drew_on: [] });
    expect(screen.queryByTestId('remembered-mark')).toBeNull();
  });

  it('lists the memories of the prompt, those the reply drew on first and highlighted; one opens on the memory page', async () => {
    const server = memoryServer([
      memory('m1', { text: 'Your name is Ann' }),
      memory('m2', { text: 'You love jazz', kind: 'story' }),
      memory('m3', { text: 'You have a cat called Miso' }),
    ]);
    const router = renderMark({ in_prompt: ['m1', 'm2', 'm3'], drew_on: ['m2'] });
    const mark = screen.getByTestId('remembered-mark');
    expect(mark.getAttribute('aria-label')).toBe('3 memories were in mind for this reply');
    expect(mark.getAttribute('data-drew-on')).toBe('true');
    // Nothing is read before the user asks.
    expect(server.calls).toHaveLength(0);
    fireEvent.click(mark);
    const list = await screen.findByTestId('remembered-list');
    await waitFor(() => expect(within(list).getAllByTestId('remembered-memory')).toHaveLength(3));
    const rows = within(list).getAllByTestId('remembered-memory');
    expect(rows.map((row) => row.getAttribute('data-drew-on'))).toEqual(['true', null, null]);
    expect(rows[0]!.textContent).toContain('You love jazz');
    expect(rows[0]!.textContent).toContain('Shaped this reply');
    expect(rows[1]!.textContent).toContain('Your name is Ann');
    expect(server.calls.map((call) => call.path).sort()).toEqual([
      '/api/memories/m1',
      '/api/memories/m2',
      '/api/memories/m3',
    ]);
    expect(rows[0]!.getAttribute('href')).toBe('/memories/aiko?memory=m2');
    fireEvent.click(rows[0]!);
    await screen.findByTestId('memory-page');
    expect(router.state.location.search).toBe('?memory=m2');
  });

  it('leaves out a memory forgotten since the reply', async () => {
    memoryServer([memory('m1', { text: 'Your name is Ann' })]);
    renderMark({ in_prompt: ['m1', 'gone'], drew_on: ['gone'] });
    fireEvent.click(screen.getByTestId('remembered-mark'));
    const list = await screen.findByTestId('remembered-list');
    await waitFor(() => expect(within(list).getAllByTestId('remembered-memory')).toHaveLength(1));
    expect(list.textContent).toContain('Your name is Ann');
    expect(screen.getByTestId('remembered-all').getAttribute('href')).toBe('/memories/aiko');
  });
});
