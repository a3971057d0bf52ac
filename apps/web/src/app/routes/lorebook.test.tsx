import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LORE_REGEX_KEYS_TESTED, type LoreEntry, type Lorebook } from '@reverie/shared';
import { initI18n } from '../../lib/i18n';
import { clearSession, setTokens } from '../../lib/session';
import { fakeApi, json, renderRoutes } from '../../features/chat/test-helpers';
import { seedProfile, testProfile } from '../../test/profile';
import { Component as LorebookPage } from './lorebook';
import { Component as LorebooksPage } from './lorebooks';
import { AlertStack } from '../../components/ui/alerts';

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => clearSession());

const entry = (changes: Partial<LoreEntry> = {}): LoreEntry => ({
  id: 'e1',
  uid: 0,
  keys: ['lantern'],
  secondary_keys: [],
  selective_logic: 'and_any',
  content: 'The lantern is old.',
  comment: 'Lantern',
  constant: false,
  enabled: true,
  order: 100,
  position: 'after_char',
  depth: 4,
  probability: 100,
  case_sensitive: false,
  use_regex: false,
  ...changes,
});

const book = (entries: LoreEntry[]): Lorebook => ({
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Harbour',
  description: '',
  scan_depth: 4,
  token_budget: 0,
  global: false,
  character: null,
  entry_count: entries.length,
  version: 1,
  updated_at: '2026-11-27T00:00:00.000Z',
  entries,
});

function signIn() {
  setTokens('a.b.c', 'd.e.f');
  seedProfile(testProfile({ id: 'u1' }));
}

describe('the lorebook editor', () => {
  it('adds an entry with its advanced fields, shows the server’s field message, edits and deletes', async () => {
    signIn();
    let entries = [entry()];
    const path = `/api/lorebooks/${book([]).id}`;
    const calls = fakeApi((call) => {
      if (call.path === path && call.method === 'GET') return json(book(entries));
      if (call.path === `${path}/entries` && call.method === 'POST') {
        const body = call.body as { keys: string[] };
        if (body.keys.includes('/(a+)+/'))
          return json(
            {
              code: 'validation_error',
              detail: 'Some fields are not filled in correctly',
              errors: { 'keys.0': ['This regular expression could take too long to run'] },
            },
            400,
          );
        const made = entry({ ...(call.body as Partial<LoreEntry>), id: 'e2', uid: 1 });
        entries = [...entries, made];
        return json(made, 201);
      }
      if (call.path === `${path}/entries/e1` && call.method === 'PATCH') {
        entries = [entry({ ...entries[0], ...(call.body as Partial<LoreEntry>) })];
        return json(entries[0]);
      }
      if (call.path === `${path}/entries/e1` && call.method === 'DELETE') {
        entries = entries.filter((e) => e.id !== 'e1');
        return new Response(null, { status: 204 });
      }
      return undefined;
    });
    renderRoutes([{ path: '/lorebooks/:id', element: <LorebookPage /> }], `/lorebooks/${book([]).id}`);
    expect(await screen.findByText('Lantern')).toBeTruthy();

    fireEvent.click(screen.getByTestId('lore-entry-add'));
    const form = await screen.findByTestId('lore-entry-form');
    // Nothing to save yet: the fields say why, and nothing is sent.
    fireEvent.click(within(form).getByTestId('lore-entry-save'));
    expect(await within(form).findByText('Fill in the field')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(within(form).getByTestId('lore-entry-keys'), { target: { value: '/(a+)+/' } });
    fireEvent.change(within(form).getByTestId('lore-entry-content'), { target: { value: 'Gulls steal bread.' } });
    fireEvent.click(within(form).getByTestId('lore-entry-save'));
    expect(await within(form).findByText('This regular expression could take too long to run')).toBeTruthy();

    // A number out of its range: the field says the range, and nothing is sent.
    const posts = calls.filter((c) => c.method === 'POST').length;
    fireEvent.change(within(form).getByTestId('lore-entry-probability'), { target: { value: '500' } });
    fireEvent.click(within(form).getByTestId('lore-entry-save'));
    expect(await within(form).findByText('Enter a whole number from 0 to 100')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(posts);

    fireEvent.change(within(form).getByTestId('lore-entry-keys'), { target: { value: 'gull, seagull' } });
    fireEvent.change(within(form).getByTestId('lore-entry-comment'), { target: { value: 'Gulls' } });
    fireEvent.change(within(form).getByTestId('lore-entry-position'), { target: { value: 'at_depth' } });
    fireEvent.change(within(form).getByTestId('lore-entry-probability'), { target: { value: '40' } });
    fireEvent.click(within(form).getByTestId('lore-entry-save'));
    expect(await screen.findByText('Gulls')).toBeTruthy();
    const sent = calls.filter((c) => c.method === 'POST').at(-1)!.body;
    expect(sent).toMatchObject({
      keys: ['gull', 'seagull'],
      content: 'Gulls steal bread.',
      comment: 'Gulls',
      position: 'at_depth',
      probability: 40,
      enabled: true,
    });
    expect(screen.getByText('40% chance')).toBeTruthy();
    // An entry at a depth shows which depth.
    expect(screen.getByText('In the chat at depth 4')).toBeTruthy();

    fireEvent.click(screen.getByText('Lantern'));
    const edit = await screen.findByTestId('lore-entry-form');
    fireEvent.click(within(edit).getByTestId('lore-entry-constant'));
    fireEvent.click(within(edit).getByTestId('lore-entry-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toMatchObject({ constant: true, keys: ['lantern'] });

    const rows = await screen.findAllByTestId('lore-entry');
    fireEvent.click(within(rows[0]!).getByTestId('lore-entry-delete'));
    fireEvent.click(await screen.findByTestId('lore-entry-delete-confirm'));
    await waitFor(() => expect(screen.queryByText('Lantern')).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE' && c.path === `${path}/entries/e1`)).toBe(true);
  });

  it(`says when a book holds more regular-expression keys than a send tests (${LORE_REGEX_KEYS_TESTED})`, async () => {
    signIn();
    const many = (n: number) =>
      Array.from({ length: n }, (_, i) =>
        entry({ id: `e${i}`, uid: i, comment: `E${i}`, keys: [`/lamp${i}/i`], secondary_keys: i % 2 ? ['x'] : [] }),
      );
    let entries = many(LORE_REGEX_KEYS_TESTED);
    const path = `/api/lorebooks/${book([]).id}`;
    fakeApi((call) => (call.path === path && call.method === 'GET' ? json(book(entries)) : undefined));
    renderRoutes([{ path: '/lorebooks/:id', element: <LorebookPage /> }], `/lorebooks/${book([]).id}`);
    expect(await screen.findByText('E0')).toBeTruthy();
    expect(screen.queryByTestId('lore-regex-over')).toBeNull();
    cleanup();
    // One more: every key of a use_regex entry counts (its plain-looking secondary key too).
    entries = [...entries, entry({ id: 'r', comment: 'R', keys: ['lamp'], secondary_keys: ['wick'], use_regex: true })];
    renderRoutes([{ path: '/lorebooks/:id', element: <LorebookPage /> }], `/lorebooks/${book([]).id}`);
    expect((await screen.findByTestId('lore-regex-over')).textContent).toBe(
      `This book has ${LORE_REGEX_KEYS_TESTED + 2} regular-expression keys: only the first ${LORE_REGEX_KEYS_TESTED} are checked, in the entries’ order.`,
    );
  });

  it('lines its buttons up: the app’s outlined and main buttons, one height in a row; the heading’s link ends with the content', async () => {
    signIn();
    const path = `/api/lorebooks/${book([]).id}`;
    fakeApi((call) => (call.path === path && call.method === 'GET' ? json(book([entry()])) : undefined));
    renderRoutes([{ path: '/lorebooks/:id', element: <LorebookPage /> }], `/lorebooks/${book([]).id}`);
    await screen.findByTestId('lorebook-editor');
    /** A button of the row's one height: a 1 px border (transparent or not), `py-2`, small text. */
    const oneHeight = (button: HTMLElement) =>
      ['border', 'py-2', 'text-sm', 'rounded-full'].every((name) => button.classList.contains(name));
    // Import and the two exports: outlined, each with its icon before its text.
    const files = within(screen.getByTestId('lorebook-files')).getAllByRole('button');
    expect(files.map((button) => button.textContent)).toEqual(['Import', 'Export World Info', 'Export as card book']);
    for (const button of files) {
      expect(oneHeight(button), button.textContent!).toBe(true);
      expect(button.classList.contains('border-white/15')).toBe(true);
      expect(button.querySelector('svg')).not.toBeNull();
    }
    expect(oneHeight(screen.getByTestId('lorebook-save'))).toBe(true);
    expect(oneHeight(screen.getByTestId('lore-entry-add'))).toBe(true);
    // The heading is as wide as the editor: "All lorebooks" ends where the content ends.
    expect(screen.getByText('All lorebooks').parentElement!.classList.contains('max-w-3xl')).toBe(true);
    // The import dialog: Cancel, Replace all, Add — one height side by side, stacked on a phone.
    const file = new File([JSON.stringify({ entries: { '0': { key: ['tide'], content: 'The tide.' } } })], 'a.json', {
      type: 'application/json',
    });
    fireEvent.change(screen.getByLabelText<HTMLInputElement>('Import'), { target: { files: [file] } });
    const actions = await screen.findByTestId('lorebook-import-actions');
    const buttons = within(actions).getAllByRole('button');
    expect(buttons.map((button) => button.textContent)).toEqual(['Cancel', 'Replace all', 'Add']);
    for (const button of buttons) expect(oneHeight(button), button.textContent!).toBe(true);
    expect(actions.className).toContain('flex-col-reverse');
    expect(actions.className).toContain('sm:flex-row');
  });

  it('lists the user’s books and creates one', async () => {
    signIn();
    const made = book([]);
    const calls = fakeApi((call) => {
      if (call.path === '/api/lorebooks' && call.method === 'GET')
        return json({ books: [{ ...made, name: 'Everywhere', global: true, entry_count: 3 }] });
      if (call.path === '/api/lorebooks' && call.method === 'POST') return json({ ...made, name: 'Harbour' }, 201);
      if (call.path === `/api/lorebooks/${made.id}`) return json(made);
      return undefined;
    });
    renderRoutes(
      [
        { path: '/lorebooks', element: <LorebooksPage /> },
        { path: '/lorebooks/:id', element: <LorebookPage /> },
      ],
      '/lorebooks',
    );
    expect(await screen.findByText('Everywhere')).toBeTruthy();
    expect(screen.getByText('3 entries · in every chat')).toBeTruthy();
    fireEvent.change(screen.getByTestId('lorebook-new-name'), { target: { value: 'Harbour' } });
    fireEvent.click(screen.getByTestId('lorebook-create'));
    expect(await screen.findByTestId('lorebook-editor')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ name: 'Harbour' });
  });

  it('an imported file with a bad entry names that entry by its number and title', async () => {
    signIn();
    fakeApi((call) => {
      if (call.path === '/api/lorebooks' && call.method === 'GET') return json({ books: [] });
      if (call.path === '/api/lorebooks/import')
        return json(
          {
            code: 'validation_error',
            detail: 'Some fields are not filled in correctly',
            errors: { 'entries.2.content': ['This text is too long'] },
          },
          400,
        );
      return undefined;
    });
    renderRoutes(
      [
        {
          path: '/lorebooks',
          element: (
            <>
              <LorebooksPage />
              <AlertStack />
            </>
          ),
        },
      ],
      '/lorebooks',
    );
    await screen.findByTestId('lorebook-list');
    const file = new File(
      [
        JSON.stringify({
          entries: {
            '0': { key: ['tide'], content: 'The tide.' },
            '1': { key: ['gull'], content: 'Gulls.' },
            '2': { key: ['reef'], comment: 'Reef', content: 'A long text.' },
          },
        }),
      ],
      'harbour.json',
      { type: 'application/json' },
    );
    fireEvent.change(screen.getByLabelText<HTMLInputElement>('Import a World Info file'), {
      target: { files: [file] },
    });
    expect((await screen.findAllByText('Entry 3 “Reef”: This text is too long')).length).toBeGreaterThan(0);
  });
});
