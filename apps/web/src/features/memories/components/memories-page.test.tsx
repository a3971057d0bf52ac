import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../../lib/i18n';
import { memory, memoryServer, renderRoutes } from '../test-helpers';
import { MemoriesPage } from './memories-page';

/** The memory page: grouped by kind, timeline, search, add, correct, pin, forget, forget all. */

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => cleanup());

const aiko = { id: 'bot1', name: 'Aiko', avatar_url: null };

function renderPage(path = '/memories/aiko') {
  const backs: number[] = [];
  const router = renderRoutes(
    [
      {
        path: '/memories/aiko',
        element: (
          <MemoriesPage
            viewer="u1"
            bot={aiko}
            highlightId={new URLSearchParams(path.split('?')[1] ?? '').get('memory')}
            onBack={() => backs.push(1)}
          />
        ),
      },
    ],
    path,
  );
  return { router, backs };
}

const cards = () => screen.getAllByTestId('memory');
const card = (text: string) => screen.getAllByTestId('memory').find((el) => el.textContent?.includes(text))!;
const openCardMenu = (text: string, item: string) => {
  fireEvent.click(within(card(text)).getByTestId('memory-menu'));
  fireEvent.click(within(card(text)).getByTestId(`memory-menu-${item}`));
};

describe('the memory page', () => {
  it('groups the memories by kind and puts shared moments on a timeline with their days', async () => {
    memoryServer([
      memory('m1', { text: 'Your name is Ann', kind: 'user' }),
      memory('m2', { text: 'First date at the harbour', kind: 'event', event_date: '2026-10-03' }),
      memory('m3', { text: 'Rainy walk in the park', kind: 'event', event_date: '2026-11-12' }),
      memory('m4', { text: 'Aiko grew up in Osaka', kind: 'character' }),
      memory('m5', { text: 'You are going steady', kind: 'relationship' }),
    ]);
    renderPage();
    expect((await screen.findByTestId('memories-title')).textContent).toContain('What Aiko remembers about you');
    await screen.findByText('Your name is Ann');
    const groups = screen.getAllByRole('region').map((section) => section.getAttribute('data-testid'));
    expect(groups).toEqual([
      'memories-group-user',
      'memories-group-relationship',
      'memories-group-event',
      'memories-group-character',
    ]);
    expect(within(screen.getByTestId('memories-group-character')).getByRole('heading').textContent).toContain(
      "Aiko's own life",
    );
    // Newest day first, each with its day.
    const timeline = screen.getByTestId('memories-timeline');
    expect(
      within(timeline)
        .getAllByTestId('memory-day')
        .map((el) => el.textContent),
    ).toEqual(['Nov 12, 2026', 'Oct 3, 2026']);
    expect(
      within(timeline)
        .getAllByTestId('memory-text')
        .map((el) => el.textContent),
    ).toEqual(['Rainy walk in the park', 'First date at the harbour']);
  });

  it('says when there is nothing yet, and offers to add one', async () => {
    memoryServer([]);
    renderPage();
    expect((await screen.findByTestId('memories-empty')).textContent).toContain(
      "Aiko doesn't remember anything about you yet.",
    );
    expect(screen.getByTestId('memory-add')).toBeTruthy();
    expect(screen.queryByTestId('memories-forget-all')).toBeNull();
  });

  it('shows a load failure with a retry that reads the list again', async () => {
    const server = memoryServer([memory('m1', { text: 'Your name is Ann' })]);
    const stop = server.fail((call) => call.method === 'GET', 500);
    renderPage();
    // The client retries a failed read once before giving up.
    expect(await screen.findByText('The memories could not be loaded.', {}, { timeout: 4000 })).toBeTruthy();
    stop();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Your name is Ann')).toBeTruthy();
  });

  it('searches on the server as the user types, and says when nothing matches', async () => {
    const server = memoryServer([
      memory('m1', { text: 'Your name is Ann' }),
      memory('m2', { text: 'You love jazz', kind: 'story' }),
    ]);
    renderPage();
    await screen.findByText('Your name is Ann');
    fireEvent.change(screen.getByTestId('memories-search'), { target: { value: 'jazz' } });
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(cards()[0]!.textContent).toContain('You love jazz');
    expect(server.calls.some((call) => call.query.get('q') === 'jazz')).toBe(true);
    fireEvent.change(screen.getByTestId('memories-search'), { target: { value: 'opera' } });
    expect((await screen.findByTestId('memories-no-match')).textContent).toContain('No memories match your search.');
  });

  it('offers "Forget everything about me" only outside a search (under results it forgets more than it shows)', async () => {
    memoryServer([memory('m1', { text: 'Your name is Ann' }), memory('m2', { text: 'You love jazz', kind: 'story' })]);
    renderPage();
    await screen.findByText('Your name is Ann');
    expect(screen.getByTestId('memories-forget-all')).toBeTruthy();
    fireEvent.change(screen.getByTestId('memories-search'), { target: { value: 'jazz' } });
    expect(screen.queryByTestId('memories-forget-all')).toBeNull();
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(screen.queryByTestId('memories-forget-all')).toBeNull();
    fireEvent.change(screen.getByTestId('memories-search'), { target: { value: '' } });
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(screen.getByTestId('memories-forget-all')).toBeTruthy();
  });

  it('keeps a memory\'s date in one piece (no line break inside "updated Nov 29, 2026")', async () => {
    memoryServer([memory('m1', { text: 'Your name is Ann' })]);
    renderPage();
    await screen.findByText('Your name is Ann');
    const when = within(card('Your name is Ann')).getByTestId('memory-when');
    expect(when.textContent).toMatch(/^remembered /);
    expect(when.className).toContain('whitespace-nowrap');
  });

  it('adds a memory by hand: a shared moment with its day', async () => {
    const server = memoryServer([memory('m1', { text: 'Your name is Ann' })]);
    renderPage();
    await screen.findByText('Your name is Ann');
    fireEvent.click(screen.getByTestId('memory-add'));
    const form = await screen.findByTestId('memory-form');
    // The kinds in the order of the page's groups.
    expect(
      within(form)
        .getAllByTestId(/^memory-kind-/)
        .map((b) => b.dataset.testid),
    ).toEqual([
      'memory-kind-user',
      'memory-kind-relationship',
      'memory-kind-event',
      'memory-kind-character',
      'memory-kind-story',
    ]);
    // Nothing written yet: the form says so and sends nothing.
    fireEvent.click(within(form).getByTestId('memory-save'));
    expect((await within(form).findByRole('alert')).textContent).toContain('Write the memory first.');
    fireEvent.change(within(form).getByTestId('memory-text-field'), { target: { value: 'We watched the fireworks' } });
    fireEvent.click(within(form).getByTestId('memory-kind-event'));
    fireEvent.change(within(form).getByTestId('memory-date-field'), { target: { value: '2026-08-15' } });
    fireEvent.click(within(form).getByTestId('memory-save'));
    expect(await screen.findByText('Memory added')).toBeTruthy();
    const post = server.calls.find((call) => call.method === 'POST');
    expect(post?.path).toBe('/api/characters/bot1/memories');
    expect(post?.body).toEqual({ text: 'We watched the fireworks', kind: 'event', event_date: '2026-08-15' });
    const timeline = await screen.findByTestId('memories-timeline');
    expect(within(timeline).getByText('We watched the fireworks')).toBeTruthy();
    expect(within(timeline).getByTestId('memory-day').textContent).toContain('Aug 15, 2026');
    expect(within(card('We watched the fireworks')).getByText(/added by you/)).toBeTruthy();
  });

  it('says so when she already remembered what the user adds (the server merged it: 200)', async () => {
    memoryServer([memory('m1', { text: 'Your name is Ann' })]);
    renderPage();
    await screen.findByText('Your name is Ann');
    fireEvent.click(screen.getByTestId('memory-add'));
    const form = await screen.findByTestId('memory-form');
    fireEvent.change(within(form).getByTestId('memory-text-field'), { target: { value: 'your name is ann' } });
    fireEvent.click(within(form).getByTestId('memory-save'));
    expect(await screen.findByText('Aiko already remembered this.')).toBeTruthy();
    expect(cards()).toHaveLength(1);
  });

  it('corrects a memory: a new revision, and the history shows how it read before', async () => {
    const server = memoryServer([memory('m1', { text: 'Your sister is called Ana' })]);
    renderPage();
    await screen.findByText('Your sister is called Ana');
    openCardMenu('Your sister is called Ana', 'edit');
    const form = await screen.findByTestId('memory-form');
    const field = within(form).getByTestId('memory-text-field');
    expect((field as HTMLTextAreaElement).value).toBe('Your sister is called Ana');
    fireEvent.change(field, { target: { value: 'Your sister is called Anna' } });
    fireEvent.click(within(form).getByTestId('memory-save'));
    expect(await screen.findByText('Memory corrected')).toBeTruthy();
    const patch = server.calls.find((call) => call.method === 'PATCH');
    expect(patch?.path).toBe('/api/memories/m1');
    expect(patch?.body).toEqual({ text: 'Your sister is called Anna', kind: 'user', event_date: null });
    await screen.findByText('Your sister is called Anna');
    expect(screen.queryByText('Your sister is called Ana')).toBeNull();
    expect(card('Your sister is called Anna').textContent).toMatch(/updated Nov 27, 2026/);

    openCardMenu('Your sister is called Anna', 'history');
    const history = await screen.findByTestId('memory-history');
    const entries = within(history).getAllByTestId('memory-history-entry');
    expect(entries.map((entry) => entry.getAttribute('data-change'))).toEqual(['corrected', 'created']);
    expect(entries[0]!.textContent).toContain('Your sister is called Anna');
    expect(entries[0]!.textContent).toContain('by you');
    expect(entries[1]!.textContent).toContain('Your sister is called Ana');
    expect(entries[1]!.textContent).toContain('by Aiko');
  });

  it('pins and unpins a memory: pinned ones come first', async () => {
    const server = memoryServer([
      memory('m1', {
        text: 'Newer fact',
        created_at: '2026-11-21T10:00:00.000Z',
        updated_at: '2026-11-21T10:00:00.000Z',
      }),
      memory('m2', { text: 'Older fact' }),
    ]);
    renderPage();
    await screen.findByText('Older fact');
    expect(cards().map((el) => el.querySelector('[data-testid=memory-text]')?.textContent)).toEqual([
      'Newer fact',
      'Older fact',
    ]);
    const pin = within(card('Older fact')).getByTestId('memory-pin');
    expect(pin.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(pin);
    expect(await screen.findByText('Pinned: Aiko will always keep it in mind')).toBeTruthy();
    expect(server.calls.find((call) => call.method === 'PATCH')?.body).toEqual({ pinned: true });
    await waitFor(() =>
      expect(cards().map((el) => el.querySelector('[data-testid=memory-text]')?.textContent)).toEqual([
        'Older fact',
        'Newer fact',
      ]),
    );
    expect(within(card('Older fact')).getByTestId('memory-pin').getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(within(card('Older fact')).getByTestId('memory-pin'));
    expect(await screen.findByText('Unpinned')).toBeTruthy();
    expect(server.calls.filter((call) => call.method === 'PATCH').at(-1)?.body).toEqual({ pinned: false });
    await waitFor(() => expect(card('Older fact').getAttribute('data-pinned')).toBeNull());
  });

  it('forgets one memory after asking; cancelling keeps it', async () => {
    const server = memoryServer([memory('m1', { text: 'Your name is Ann' }), memory('m2', { text: 'You love jazz' })]);
    renderPage();
    await screen.findByText('You love jazz');
    openCardMenu('You love jazz', 'forget');
    expect(await screen.findByText('Forget this memory?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByText('Forget this memory?')).toBeNull());
    expect(server.calls.some((call) => call.method === 'DELETE')).toBe(false);

    openCardMenu('You love jazz', 'forget');
    fireEvent.click(await screen.findByTestId('memory-forget-confirm'));
    expect(await screen.findByText('Forgotten')).toBeTruthy();
    expect(server.calls.find((call) => call.method === 'DELETE')?.path).toBe('/api/memories/m2');
    await waitFor(() => expect(screen.queryByText('You love jazz')).toBeNull());
    expect(server.memories().map((m) => m.id)).toEqual(['m1']);
  });

  it("counts each kind's memories in all, not only those of the pages loaded; forgetting one counts one less", async () => {
    const kinds = ['user', 'user', 'user', 'event', 'user'] as const;
    memoryServer(
      kinds.map((kind, i) =>
        memory(`m${i}`, {
          text: `Fact ${i}`,
          kind,
          created_at: `2026-11-2${5 - i}T10:00:00.000Z`,
          ...(kind === 'event' ? { event_date: '2026-11-01' } : {}),
        }),
      ),
      { pageSize: 2 },
    );
    renderPage();
    await screen.findByText('Fact 1');
    const heading = (kind: string) => within(screen.getByTestId(`memories-group-${kind}`)).getByRole('heading');
    // Two loaded of the four about the user.
    expect(within(screen.getByTestId('memories-group-user')).getAllByTestId('memory')).toHaveLength(2);
    expect(heading('user').textContent).toContain('(4)');
    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    await screen.findByText('Fact 3');
    expect(heading('user').textContent).toContain('(4)');
    expect(heading('event').textContent).toContain('(1)');
    openCardMenu('Fact 0', 'forget');
    fireEvent.click(await screen.findByTestId('memory-forget-confirm'));
    await waitFor(() => expect(screen.queryByText('Fact 0')).toBeNull());
    await waitFor(() => expect(heading('user').textContent).toContain('(3)'));
  });

  it('forgets everything after asking: the page is empty', async () => {
    const server = memoryServer([memory('m1', { text: 'Your name is Ann' }), memory('m2', { text: 'You love jazz' })]);
    renderPage();
    await screen.findByText('You love jazz');
    fireEvent.click(screen.getByTestId('memories-forget-all'));
    expect(await screen.findByText('Forget everything about you?')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByTestId('memories-forget-all-confirm'));
    });
    expect(await screen.findByText('Aiko no longer remembers anything about you.')).toBeTruthy();
    const forgetAll = server.calls.find((call) => call.method === 'DELETE');
    expect(forgetAll?.path).toBe('/api/characters/bot1/memories');
    expect(await screen.findByTestId('memories-empty')).toBeTruthy();
    expect(screen.queryByText('Your name is Ann')).toBeNull();
  });

  it('highlights the memory a reply opened', async () => {
    memoryServer([memory('m1', { text: 'Your name is Ann' }), memory('m2', { text: 'You love jazz' })]);
    renderPage('/memories/aiko?memory=m2');
    await screen.findByText('You love jazz');
    expect(card('You love jazz').getAttribute('data-highlighted')).toBe('true');
    expect(card('Your name is Ann').getAttribute('data-highlighted')).toBeNull();
  });

  it('says so when the memory a reply opened was forgotten since', async () => {
    memoryServer([memory('m1', { text: 'Your name is Ann' })]);
    renderPage('/memories/aiko?memory=gone');
    expect((await screen.findByTestId('memory-opened-gone')).textContent).toContain('This memory no longer exists.');
  });
});
