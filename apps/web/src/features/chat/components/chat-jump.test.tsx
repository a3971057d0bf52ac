import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { History, Message } from '@reverie/shared';
import { initI18n } from '../../../lib/i18n';
import { clearSession, setTokens } from '../../../lib/session';
import { rememberPlace } from '../scroll-memory';
import { chat, fakeApi, json, liveStream, message, renderChatView } from '../test-helpers';

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => {
  clearSession();
  rememberPlace('c1', null);
});

const say = (n: number): Message =>
  message(`m${n}`, {
    role: n % 2 ? 'bot' : 'user',
    text: `line ${n}`,
    created_at: new Date(Date.UTC(2026, 10, 1, 10, n)).toISOString(),
    // Each reply answers the message before it (what regenerate needs).
    reply_to: n % 2 ? `m${n - 1}` : null,
  });
/** Newest first, as the API pages. */
const lines = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => say(to - i));
/**
 * The page a jump to 2 November answers: its first message m200 (the anchor) opens the day, the
 * fifteen before it are of the evening before (the reader's time zone).
 */
const dayPage = () =>
  lines(185, 214).map((m) => {
    const n = Number(m.id.slice(1));
    const at = n < 200 ? new Date(2026, 10, 1, 20, n - 185) : new Date(2026, 10, 2, 8, n - 200);
    return { ...m, created_at: at.toISOString() };
  });

function renderChat() {
  const stream = liveStream();
  const retried = liveStream();
  const calls = fakeApi((call) => {
    if (call.method === 'POST' && call.path === '/api/chat/c1/messages') return stream.response();
    if (call.method === 'POST' && call.path === '/api/chat/c1/messages/m5/regenerate') return retried.response();
    if (call.path === '/api/chat/c1/export')
      return new Response('{"user_name":"Ann"}\n', {
        headers: { 'content-disposition': 'attachment; filename="aiko-2026-11-01.jsonl"' },
      });
    if (call.path !== '/api/chat/history/c1') return undefined;
    const query = new URLSearchParams(call.search);
    const page = (results: Message[], more: Partial<History>): Response =>
      json({ results, next_param: null, prev_param: null, ...more });
    if (query.get('from') === 'first')
      return page(
        // m5 is an old reply whose generation failed.
        lines(0, 29).map((m) =>
          m.id === 'm5' ? { ...m, text: '', state: 'failed', error_code: 'provider_error' } : m,
        ),
        { prev_param: 'after29' },
      );
    if (query.get('a') === 'after29') return page(lines(30, 59), { prev_param: 'after59' });
    if (query.get('a') === 'after59') return new Promise<Response>(() => {}); // still loading
    if (query.get('at')) return page(dayPage(), { anchor_id: 'm200', next_param: 'x', prev_param: 'y' });
    return page(lines(970, 999), { next_param: 'before970' });
  });
  renderChatView(chat());
  return { calls, stream, retried };
}

/** The list's rows in order: `text`'s row comes right after `before`'s (and right before `after`'s). */
function expectRowBetween(text: string, before: string, after?: string) {
  const rows = screen.getAllByRole('listitem', { hidden: true }).map((li) => li.textContent ?? '');
  const at = (t: string) => rows.findIndex((row) => row.includes(t));
  expect(at(text)).toBe(at(before) + 1);
  if (after) expect(at(after)).toBe(at(text) + 1);
}

const historyQueries = (calls: { path: string; search: string }[]) =>
  calls.filter((c) => c.path === '/api/chat/history/c1').map((c) => new URLSearchParams(c.search));

async function openJump() {
  fireEvent.click(await screen.findByTestId('chat-menu'));
  fireEvent.click(screen.getByTestId('chat-menu-jump'));
}

/** Jump > "The first message"; answers the row that holds `shown` once it shows (default line 0). */
async function jumpToFirst(shown = 'line 0') {
  await openJump();
  fireEvent.click(await screen.findByTestId('jump-first', {}, { timeout: 5000 }));
  return (await screen.findByText(shown, {}, { timeout: 5000 })).closest('li')!;
}

describe('going to a place in a long chat', { timeout: 30_000 }, () => {
  it(
    'jumps to the first message, reads forward, and a send brings the user back to the newest',
    { timeout: 30_000 },
    async () => {
      setTokens('a.b.c', 'd.e.f');
      const { calls } = renderChat();
      await screen.findByText('line 999', {}, { timeout: 5000 });
      await jumpToFirst();
      expect(screen.queryByText('line 999')).toBeNull();
      expect(historyQueries(calls).some((q) => q.get('from') === 'first')).toBe(true);

      // Not at the newest: the way down loads the next pages (the end is in this tall test view
      // at once), and "jump to latest" is offered.
      expect(screen.getByTestId('jump-to-latest')).toBeTruthy();
      await screen.findByText('line 59', {}, { timeout: 5000 });
      expect(screen.queryByText('Show later messages') ?? screen.queryByText('Loading later messages…')).toBeTruthy();
      expect(historyQueries(calls).some((q) => q.get('a') === 'after29')).toBe(true);

      // A send from here: the newest page again, with the user's message after it.
      fireEvent.change(screen.getByPlaceholderText('Message Aiko…'), { target: { value: 'Back to now' } });
      fireEvent.keyDown(screen.getByPlaceholderText('Message Aiko…'), { key: 'Enter' });
      await screen.findByText('line 999', {}, { timeout: 5000 });
      await waitFor(() => expect(screen.getByText('Back to now')).toBeTruthy());
      expect(screen.queryByText('line 0')).toBeNull();
      // (The closed jump dialog gives the page back to assistive technology a moment later.)
      await waitFor(() => {
        const texts = screen.getAllByRole('listitem').map((li) => li.textContent ?? '');
        expect(texts.findIndex((t) => t.includes('Back to now'))).toBeGreaterThan(
          texts.findIndex((t) => t.includes('line 999')),
        );
      });
    },
  );

  it('jumps to the first message of a day', async () => {
    setTokens('a.b.c', 'd.e.f');
    const { calls } = renderChat();
    await screen.findByText('line 999', {}, { timeout: 5000 });
    await openJump();
    fireEvent.change(await screen.findByTestId('jump-date', {}, { timeout: 5000 }), {
      target: { value: '2026-11-01' },
    });
    fireEvent.click(screen.getByTestId('jump-date-go'));
    await screen.findByText('line 200', {}, { timeout: 5000 });
    const at = historyQueries(calls)
      .find((q) => q.has('at'))!
      .get('at')!;
    expect(new Date(at).getTime()).toBe(new Date('2026-11-01T00:00:00').getTime());
  });

  it('shows the days after a jump: above the first message, and above the day jumped to', async () => {
    setTokens('a.b.c', 'd.e.f');
    renderChat();
    await screen.findByText('line 999', {}, { timeout: 5000 });
    const separatorOf = (text: string) =>
      screen.getByText(text).closest('[data-message-id]')!.querySelector('[data-testid="day-separator"]');

    await jumpToFirst();
    // The first message of the chat begins its day.
    await waitFor(() => expect(separatorOf('line 0')).not.toBeNull());
    expect(separatorOf('line 1')).toBeNull();

    await openJump();
    fireEvent.change(await screen.findByTestId('jump-date', {}, { timeout: 5000 }), {
      target: { value: '2026-11-02' },
    });
    fireEvent.click(screen.getByTestId('jump-date-go'));
    await screen.findByText('line 200', {}, { timeout: 5000 });
    // The day jumped to, above its first message; the evening before has none of its own (its
    // day began further up, not loaded).
    await waitFor(() => expect(separatorOf('line 200')?.textContent).toBe('Monday, November 2'));
    expect(screen.getAllByTestId('day-separator')).toHaveLength(1);
  });

  it('after a jump back, the last reply loaded (an old one) offers no regenerate', async () => {
    setTokens('a.b.c', 'd.e.f');
    renderChat();
    await screen.findByText('line 999', {}, { timeout: 5000 });
    // At the newest, the newest reply offers it.
    const newest = screen.getByText('line 999').closest('li')!;
    expect(within(newest).getByTestId('regenerate-button')).toBeTruthy();

    await jumpToFirst('line 59');
    // m59 is the last reply loaded, not the chat's newest: a new alternative of it would be
    // written where the list shows nothing.
    expect(screen.queryAllByTestId('regenerate-button')).toHaveLength(0);
  });

  it('after a jump back, "Retry" on an old failed reply regenerates it in its place, shown as it is written', async () => {
    setTokens('a.b.c', 'd.e.f');
    const { calls, retried } = renderChat();
    await screen.findByText('line 999', {}, { timeout: 5000 });
    await jumpToFirst();
    const failed = () => document.querySelector<HTMLElement>('[data-id="m5"]')!;
    await waitFor(() => expect(failed().dataset.state).toBe('failed'), { timeout: 5000 });
    fireEvent.click(within(failed()).getByTestId('retry-button'));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/chat/c1/messages/m5/regenerate')).toBe(true));
    retried.emit('bot_message', message('m5', { state: 'streaming', text: '', reply_to: 'm4' }));
    retried.emit('delta', { message_id: 'm5', text: 'A second try.' });
    await waitFor(() => expect(failed().textContent).toContain('A second try.'), { timeout: 5000 });
    retried.emit('bot_message', message('m5', { state: 'done', text: 'A second try.', reply_to: 'm4' }));
    retried.end();
    await waitFor(() => expect(failed().dataset.state).toBe('done'), { timeout: 5000 });
    // Where it was: between m4 and m6, the window unchanged (nothing counted as new).
    expectRowBetween('A second try.', 'line 4', 'line 6');
    expect(screen.queryByText('line 999')).toBeNull();
    expect(screen.queryByTestId('new-count')).toBeNull();
  });

  /**
   * The page reloaded while an old reply (far back, outside the newest page) is being written
   * again: the history has it as last saved, `streaming`. `pages` answers the history's
   * requests; the reply's stream (`GET …/stream/{id}`) is the test's to write.
   */
  function renderReloaded(liveId: string, pages: (query: URLSearchParams) => Partial<History> | undefined) {
    const attached = liveStream();
    const calls = fakeApi((call) => {
      if (call.path === `/api/chat/c1/stream/${liveId}`) return attached.response();
      if (call.path !== '/api/chat/history/c1') return undefined;
      const query = new URLSearchParams(call.search);
      if (query.get('a')) return new Promise<Response>(() => {}); // the newer pages: still loading
      const page = pages(query);
      return page ? json({ results: [], next_param: null, prev_param: null, ...page }) : undefined;
    });
    renderChatView(chat());
    const row = () => document.querySelector<HTMLElement>(`[data-id="${liveId}"]`);
    const attaches = () => calls.filter((c) => c.path === `/api/chat/c1/stream/${liveId}`).length;
    return { attached, row, attaches };
  }

  it('reloaded at an old reply being regenerated: its dots while it is written, its text in place, then no dots', async () => {
    setTokens('a.b.c', 'd.e.f');
    // The reader's last place: 2 November, where m205 was asked for again (a new alternative,
    // m205-2, still empty) before the reload.
    const page = dayPage().map((m) =>
      m.id === 'm205' ? { ...m, id: 'm205-2', text: '', state: 'streaming' as const, alt_index: 1, alt_count: 2 } : m,
    );
    rememberPlace('c1', { id: 'm200', at: page.find((m) => m.id === 'm200')!.created_at });
    const { attached, row, attaches } = renderReloaded('m205-2', (query) =>
      query.get('at') ? { results: page, anchor_id: 'm200', prev_param: 'later' } : undefined,
    );
    await screen.findByText('line 200', {}, { timeout: 5000 });
    expect(screen.queryByText('line 999')).toBeNull();
    await waitFor(() => expect(row()?.dataset.state).toBe('streaming'), { timeout: 5000 });
    expect(within(row()!).getByTestId('typing')).toBeTruthy();
    // The page follows it where it is (whichever replica writes it: the server's stream by id).
    await waitFor(() => expect(attaches()).toBe(1), { timeout: 5000 });
    const alt = { reply_to: 'm204', alt_index: 1, alt_count: 2 };
    attached.emit('bot_message', message('m205-2', { ...alt, state: 'streaming', text: 'Once ' }));
    attached.emit('delta', { message_id: 'm205-2', text: 'more, then.' });
    await waitFor(() => expect(row()!.textContent).toContain('Once more, then.'), { timeout: 5000 });
    attached.emit('bot_message', message('m205-2', { ...alt, state: 'done', text: 'Once more, then.' }));
    attached.end();
    await waitFor(() => expect(row()!.dataset.state).toBe('done'), { timeout: 5000 });
    expect(within(row()!).queryByTestId('typing')).toBeNull();
    // In its place, the window unchanged, nothing counted as new, the composer free again.
    expectRowBetween('Once more, then.', 'line 204', 'line 206');
    expect(screen.queryByTestId('new-count')).toBeNull();
    expect(screen.queryByTestId('stop-button')).toBeNull();
    expect(attaches()).toBe(1);
  });

  it('reloaded at the newest page while an older reply of it is regenerated: followed to its end in place', async () => {
    setTokens('a.b.c', 'd.e.f');
    // m981 (not the newest reply) was asked for again; the newest page has it as last saved.
    const page = lines(970, 999).map((m) =>
      m.id === 'm981' ? { ...m, text: 'Half of it', state: 'streaming' as const, alt_index: 1, alt_count: 2 } : m,
    );
    const { attached, row } = renderReloaded('m981', () => ({ results: page }));
    await screen.findByText('line 999', {}, { timeout: 5000 });
    await waitFor(() => expect(row()?.dataset.state).toBe('streaming'), { timeout: 5000 });
    const alt = { reply_to: 'm980', alt_index: 1, alt_count: 2 };
    attached.emit('bot_message', message('m981', { ...alt, state: 'streaming', text: 'Half of it' }));
    attached.emit('bot_message', message('m981', { ...alt, state: 'done', text: 'Half of it, and the rest.' }));
    attached.end();
    await waitFor(() => expect(row()!.dataset.state).toBe('done'), { timeout: 5000 });
    expect(row()!.textContent).toContain('Half of it, and the rest.');
    expectRowBetween('the rest.', 'line 980');
    // The newest reply offers regenerate again (nothing is being written).
    await waitFor(() => expect(screen.queryByTestId('stop-button')).toBeNull());
  });

  it('at the newest, an older page with a reply being regenerated: followed when that page loads', async () => {
    setTokens('a.b.c', 'd.e.f');
    const older = lines(870, 969).map((m) =>
      m.id === 'm901' ? { ...m, text: '', state: 'streaming' as const, alt_index: 1, alt_count: 2 } : m,
    );
    const { attached, row, attaches } = renderReloaded('m901', (query) =>
      query.get('c') === 'before970'
        ? { results: older }
        : query.has('c')
          ? undefined
          : { results: lines(970, 999), next_param: 'before970' },
    );
    await screen.findByText('line 999', {}, { timeout: 5000 });
    // Not loaded: nothing to follow yet.
    expect(attaches()).toBe(0);
    fireEvent.click(await screen.findByText('Show earlier messages', {}, { timeout: 5000 }));
    await waitFor(() => expect(row()?.dataset.state).toBe('streaming'), { timeout: 5000 });
    await waitFor(() => expect(attaches()).toBe(1), { timeout: 5000 });
    attached.emit('bot_message', message('m901', { reply_to: 'm900', alt_index: 1, alt_count: 2, text: 'Done now.' }));
    attached.end();
    await waitFor(() => expect(row()!.dataset.state).toBe('done'), { timeout: 5000 });
    expect(row()!.textContent).toContain('Done now.');
  });

  it('a retry of an old reply goes on in its place when the user goes back to the newest meanwhile', async () => {
    setTokens('a.b.c', 'd.e.f');
    const { retried } = renderChat();
    await screen.findByText('line 999', {}, { timeout: 5000 });
    await jumpToFirst();
    const failed = () => document.querySelector<HTMLElement>('[data-id="m5"]');
    await waitFor(() => expect(failed()?.dataset.state).toBe('failed'), { timeout: 5000 });
    fireEvent.click(within(failed()!).getByTestId('retry-button'));
    retried.emit('bot_message', message('m5', { state: 'streaming', text: '', reply_to: 'm4' }));
    await waitFor(() => expect(failed()?.dataset.state).toBe('streaming'), { timeout: 5000 });
    fireEvent.click(screen.getByTestId('jump-to-latest'));
    await screen.findByText('line 999', {}, { timeout: 5000 });
    retried.emit('delta', { message_id: 'm5', text: 'A second try.' });
    retried.emit('bot_message', message('m5', { state: 'done', text: 'A second try.', reply_to: 'm4' }));
    retried.end();
    await waitFor(() => expect(screen.queryByTestId('stop-button')).toBeNull(), { timeout: 5000 });
    // m5 is far above the newest page: not put at its end.
    expect(failed()).toBeNull();
    expect(screen.queryByText('A second try.')).toBeNull();
  });

  it('counts a reply that finishes after a jump back on "jump to latest", and forgets it there', async () => {
    setTokens('a.b.c', 'd.e.f');
    const { stream } = renderChat();
    await screen.findByText('line 999', {}, { timeout: 5000 });
    const field = screen.getByRole('textbox', { name: 'Your message to Aiko' });
    fireEvent.change(field, { target: { value: 'Still there?' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    await screen.findByText('Still there?', {}, { timeout: 5000 });
    const user = message('u1', { role: 'user', client_id: null, text: 'Still there?' });
    stream.emit('user_message', user);
    stream.emit('bot_message', message('r1', { state: 'streaming', text: '', reply_to: 'u1' }));

    await jumpToFirst();
    expect(screen.queryByTestId('new-count')).toBeNull();
    // The reply ends while the user reads the first messages: not in this window, but counted.
    stream.emit('delta', { message_id: 'r1', text: 'Always.' });
    stream.emit('bot_message', message('r1', { state: 'done', text: 'Always.', reply_to: 'u1' }));
    await waitFor(() => expect(screen.getByTestId('new-count').textContent).toBe('1'), { timeout: 5000 });
    expect(screen.getByTestId('jump-to-latest').getAttribute('aria-label')).toBe('Go to the latest message, 1 new');
    expect(screen.queryByText('Always.')).toBeNull();

    // "Jump to latest": the newest page again, and nothing counted.
    fireEvent.click(screen.getByTestId('jump-to-latest'));
    await screen.findByText('line 999', {}, { timeout: 5000 });
    expect(screen.queryByTestId('new-count')).toBeNull();
  });

  it('"Delete from here" after a jump back gives no count of the loaded messages (more follow, unloaded)', async () => {
    setTokens('a.b.c', 'd.e.f');
    renderChat();
    await screen.findByText('line 999', {}, { timeout: 5000 });
    const row = await jumpToFirst();
    fireEvent.click(within(row).getByTestId('message-menu'));
    fireEvent.click(within(row).getByTestId('message-menu-delete-from'));
    expect(
      await screen.findByText('This message and everything after it disappear from this chat.', {}, { timeout: 5000 }),
    ).toBeTruthy();
    expect(screen.queryByText(/more\) disappear/)).toBeNull();
  });

  it('exports the chat as SillyTavern JSONL from the menu, with the file name the server gives', async () => {
    setTokens('a.b.c', 'd.e.f');
    const names: string[] = [];
    const original = URL.createObjectURL;
    const click = HTMLAnchorElement.prototype.click;
    URL.createObjectURL = () => 'blob:chat';
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      names.push(this.download);
    };
    try {
      const { calls } = renderChat();
      const exportCalls = () => calls.filter((c) => c.path === '/api/chat/c1/export');
      await screen.findByText('line 999', {}, { timeout: 5000 });
      fireEvent.click(screen.getByTestId('chat-menu'));
      fireEvent.click(screen.getByTestId('chat-menu-export-jsonl'));
      await waitFor(() => expect(names).toEqual(['aiko-2026-11-01.jsonl']));
      expect(new URLSearchParams(exportCalls()[0]!.search).get('format')).toBe('jsonl');
    } finally {
      URL.createObjectURL = original;
      HTMLAnchorElement.prototype.click = click;
    }
  });
});
