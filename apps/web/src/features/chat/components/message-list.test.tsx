import { act, fireEvent, render, renderHook, screen, waitFor } from '@testing-library/react';
import { VirtuosoMockContext } from 'react-virtuoso';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Message } from '@reverie/shared';
import { initI18n } from '../../../lib/i18n';
import { openingAnchor } from '../scroll-memory';
import { message } from '../test-helpers';
import { MessageList, useFirstItemIndex, type MessageListProps } from './message-list';

// happy-dom lays nothing out: every row is 40 px (Virtuoso's mock context below), so the rows'
// estimates from their text (row-estimates.test.ts) are 40 px too.
vi.mock('../row-estimates', () => ({
  rowMetrics: () => null,
  rowEstimates: (messages: Message[]) => messages.map(() => 40),
}));

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** `count` messages m0…, alternating user and character, a minute apart. */
const conversation = (count: number, from = 0): Message[] =>
  Array.from({ length: count }, (_, i) =>
    message(`m${from + i}`, {
      role: (from + i) % 2 ? 'bot' : 'user',
      text: `text ${from + i}`,
      created_at: new Date(Date.UTC(2026, 10, 1, 10, from + i)).toISOString(),
    }),
  );

const base: Omit<MessageListProps, 'messages'> = {
  botName: 'Aiko',
  botAvatar: null,
  lastBotId: null,
  busy: false,
  waitingForReply: false,
  hasOlder: false,
  isLoadingOlder: false,
  loadOlder: () => {},
  chatId: 'c1',
};

/** How tall the list's content is (happy-dom lays nothing out): 40 px a row. */
let rows = 0;
const tick = () =>
  act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 60));
  });

/** A phone-sized view: 400 px of 40 px rows, ten messages in view. */
async function renderList(props: Partial<MessageListProps> & { messages: Message[] }) {
  const view = (next: Partial<MessageListProps> & { messages: Message[] }) => (
    <VirtuosoMockContext.Provider value={{ viewportHeight: 400, itemHeight: 40 }}>
      <MessageList {...base} {...next} />
    </VirtuosoMockContext.Provider>
  );
  rows = props.messages.length;
  const result = render(view(props));
  const element = screen.getByTestId('message-scroller');
  Object.defineProperty(element, 'scrollHeight', { configurable: true, get: () => rows * 40 });
  Object.defineProperty(element, 'clientHeight', { configurable: true, value: 400 });
  // Opened at the newest, the browser's view is at the end (happy-dom scrolls nothing by itself).
  if (!props.anchorId && props.openAt !== 'start')
    act(() => {
      element.scrollTop = Math.max(0, rows * 40 - 400);
      fireEvent.scroll(element);
    });
  await waitFor(() => expect(shownTexts().length + screen.queryAllByRole('listitem').length).toBeGreaterThan(0), {
    timeout: 5000,
  });
  await tick();
  return {
    ...result,
    update: async (next: Partial<MessageListProps> & { messages: Message[] }) => {
      rows = next.messages.length;
      result.rerender(view(next));
      await tick();
    },
  };
}

const scroller = () => screen.getByTestId('message-scroller');

/** Lays the rows out as a browser would (happy-dom does not): 40 px each, from the list's top. */
function layOut() {
  const view = scroller();
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    const id = this.dataset.messageId;
    const top = this === view ? 0 : id ? Number(id.slice(1)) * 40 - view.scrollTop : 0;
    const height = this === view ? 400 : id ? 40 : 0;
    return { top, bottom: top + height, height, left: 0, right: 390, width: 390, x: 0, y: top } as DOMRect;
  });
}
const scrollTo = async (top: number) => {
  act(() => {
    scroller().scrollTop = top;
    fireEvent.scroll(scroller());
  });
  await tick();
};
const shownTexts = () => screen.queryAllByText(/^text \d+$/).map((node) => node.textContent);

describe('MessageList (virtualised)', () => {
  it('puts only the messages near the view in the page, and opens at the newest', async () => {
    await renderList({ messages: conversation(2000) });
    const shown = shownTexts();
    expect(shown.length).toBeGreaterThan(5);
    expect(shown.length).toBeLessThan(100);
    expect(shown).toContain('text 1999');
    expect(shown).not.toContain('text 0');
    expect(screen.queryByTestId('jump-to-latest')).toBeNull();
  });

  it('shows "jump to latest" with the count of new messages once the newest is out of view', async () => {
    const messages = conversation(60);
    const { update } = await renderList({ messages });
    await scrollTo(0);
    const jump = await screen.findByTestId('jump-to-latest', {}, { timeout: 5000 });
    expect(screen.queryByTestId('new-count')).toBeNull();

    // Two messages arrive while the user reads further up: counted, and the view stays put.
    await update({ messages: [...messages, ...conversation(2, 60)] });
    await waitFor(() => expect(screen.getByTestId('new-count').textContent).toBe('2'), { timeout: 5000 });
    expect(jump.getAttribute('aria-label')).toBe('Go to the latest message, 2 new');
    expect(scroller().scrollTop).toBe(0);
    expect(shownTexts()).toContain('text 0');

    // The button goes back down (Chromium's scrolling is checked by e2e/lore.e2e.ts and the bench).
    fireEvent.click(jump);
    await tick();
  });

  it('counts a reply that had not started when the user scrolled up as new', async () => {
    const messages = [...conversation(40), message('r1', { state: 'streaming', text: '' })];
    const { update } = await renderList({ messages });
    await scrollTo(0);
    await screen.findByTestId('jump-to-latest', {}, { timeout: 5000 });
    expect(screen.queryByTestId('new-count')).toBeNull();
    await update({ messages: [...conversation(40), message('r1', { state: 'streaming', text: 'Here' })] });
    await waitFor(() => expect(screen.getByTestId('new-count').textContent).toBe('1'), { timeout: 5000 });
  });

  it("keeps counting after the user's own message is replaced by the saved one", async () => {
    const local = message('local-k1', { role: 'user', client_id: 'k1', state: 'streaming', text: 'Look up' });
    const { update } = await renderList({ messages: [...conversation(40), local] });
    await scrollTo(0);
    await screen.findByTestId('jump-to-latest', {}, { timeout: 5000 });
    const saved = { ...local, id: 'u1', state: 'done' as const };
    await update({ messages: [...conversation(40), saved, message('b1', { text: 'A gull lands.' })] });
    await waitFor(() => expect(screen.getByTestId('new-count').textContent).toBe('1'), { timeout: 5000 });
  });

  it('after a jump back, goes on counting: what it counted before, and what arrived since; none back at the newest', async () => {
    const messages = conversation(60);
    const { update } = await renderList({ messages });
    await scrollTo(0);
    await update({ messages: [...messages, ...conversation(2, 60)] });
    await waitFor(() => expect(screen.getByTestId('new-count').textContent).toBe('2'), { timeout: 5000 });

    // A jump to the first messages: the newest are not loaded; a reply that finishes meanwhile
    // is not in the list, but it is counted with the two before.
    await update({ messages: conversation(30), windowKey: 1, hasNewer: true, openAt: 'start' });
    expect(screen.getByTestId('new-count').textContent).toBe('2');
    await update({ messages: conversation(30), windowKey: 1, hasNewer: true, openAt: 'start', awayCount: 1 });
    expect(screen.getByTestId('new-count').textContent).toBe('3');
    expect(screen.getByTestId('jump-to-latest').getAttribute('aria-label')).toBe('Go to the latest message, 3 new');
    // Another jump back: still three (nothing new came since).
    await update({ messages: conversation(30, 10), windowKey: 2, hasNewer: true, openAt: 'start', awayCount: 0 });
    expect(screen.getByTestId('new-count').textContent).toBe('3');

    // Back at the newest messages (they include the three): nothing is counted.
    rows = 63;
    await update({ messages: conversation(63), windowKey: 3 });
    await scrollTo(63 * 40 - 400);
    await waitFor(() => expect(screen.queryByTestId('jump-to-latest')).toBeNull(), { timeout: 5000 });
    expect(screen.queryByTestId('new-count')).toBeNull();
  });

  it('puts each day above its first message, the first loaded one only once nothing older is left', async () => {
    const at = (day: number, hour: number) => new Date(2026, 10, day, hour).toISOString();
    const messages = [
      message('d0', { text: 'text 0', created_at: at(20, 22) }),
      message('d1', { role: 'user', text: 'text 1', created_at: at(20, 23) }),
      message('d2', { text: 'text 2', created_at: at(21, 9) }),
      message('d3', { role: 'user', text: 'text 3', created_at: at(21, 10) }),
    ];
    vi.useFakeTimers({ now: new Date(2026, 10, 29, 12), toFake: ['Date'] });
    try {
      const { update } = await renderList({ messages, hasOlder: true });
      const separators = () => screen.queryAllByTestId('day-separator').map((node) => node.textContent);
      // Older messages may be of the same day: only where the day changes.
      expect(separators()).toEqual(['Saturday, November 21']);
      const row = screen.getByText('text 2').closest('[data-message-id]')!;
      expect(row.querySelector('[data-testid="day-separator"]')).not.toBeNull();
      // The whole history loaded (or a jump to the first message): the first day too.
      await update({ messages, hasOlder: false });
      expect(separators()).toEqual(['Friday, November 20', 'Saturday, November 21']);
      // Named for assistive technology too (`hidden`: the list may be hidden while it measures, in jsdom).
      expect(screen.getAllByRole('separator', { hidden: true }).map((node) => node.getAttribute('aria-label'))).toEqual(
        separators(),
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the message being read in place: older pages go in front of a stable first index', () => {
    const newest = conversation(40, 100);
    const { result, rerender } = renderHook(({ messages, key }) => useFirstItemIndex(messages, key), {
      initialProps: { messages: newest, key: 0 },
    });
    const start = result.current;
    // Thirty older messages in front: the index of the message being read does not move.
    rerender({ messages: [...conversation(30, 70), ...newest], key: 0 });
    expect(result.current).toBe(start - 30);
    // New messages at the end change nothing.
    rerender({ messages: [...conversation(30, 70), ...newest, ...conversation(2, 140)], key: 0 });
    expect(result.current).toBe(start - 30);
    // A jump opens a new window: counted afresh.
    rerender({ messages: conversation(30, 0), key: 1 });
    expect(result.current).toBe(start);
  });

  it('remembers the first message in view (not a row rendered above it) for the next visit, and forgets it at the end', async () => {
    await renderList({ messages: conversation(60) });
    layOut();
    await scrollTo(800);
    await waitFor(() => expect(openingAnchor('c1')).toMatchObject({ kind: 'date', focusId: 'm20', focusOffset: 0 }), {
      timeout: 5000,
    });
    expect(openingAnchor('c1')).toMatchObject({ at: conversation(1, 20)[0]!.created_at });
    await scrollTo(815);
    await waitFor(() => expect(openingAnchor('c1')).toMatchObject({ focusId: 'm20', focusOffset: 15 }), {
      timeout: 5000,
    });
    await scrollTo(60 * 40);
    await waitFor(() => expect(openingAnchor('c1')).toEqual({ kind: 'latest' }), { timeout: 5000 });
  });

  it('reopens at the place kept: that message first, scrolled as far as it was', async () => {
    await renderList({ messages: conversation(60), anchorId: 'm30', anchorOffset: 15, hasNewer: true });
    await waitFor(() => expect(shownTexts()).toContain('text 30'), { timeout: 5000 });
    expect(shownTexts()).not.toContain('text 5');
  });

  it('holds the view once the user scrolls up right after a send: nothing pulls it down', async () => {
    const messages = conversation(60);
    const { update } = await renderList({ messages });
    const local = message('local-k2', { role: 'user', client_id: 'k2', state: 'streaming', text: 'Look up' });
    await update({ messages: [...messages, local], sentCount: 1, waitingForReply: true });
    await scrollTo(61 * 40 - 400); // the send's scroll to the user's message, landed
    await scrollTo(800); // at once, the user scrolls up by hand
    const saved = { ...local, id: 'u2', state: 'done' as const };
    for (const text of ['A', 'A gull', 'A gull lands on the mast.']) {
      await update({
        messages: [...messages, saved, message('b2', { state: 'streaming', text })],
        sentCount: 1,
        waitingForReply: false,
      });
    }
    await waitFor(() => expect(screen.getByTestId('new-count').textContent).toBe('1'), { timeout: 5000 });
    expect(scroller().scrollTop).toBe(800);
    expect(shownTexts()).toContain('text 25');
    expect(screen.queryByText('A gull lands on the mast.')).toBeNull();
  });

  it('opens at the first message after a jump to it', async () => {
    await renderList({ messages: conversation(300), openAt: 'start', hasNewer: true });
    await waitFor(() => expect(shownTexts()).toContain('text 0'), { timeout: 5000 });
    expect(shownTexts()).not.toContain('text 299');
  });

  it('after a jump back, "jump to latest" reopens the newest messages', async () => {
    let jumped = 0;
    await renderList({ messages: conversation(30), hasNewer: true, onJumpToLatest: () => (jumped += 1) });
    fireEvent.click(screen.getByTestId('jump-to-latest'));
    expect(jumped).toBe(1);
  });

  it("draws the rows' icons from one sprite, and hands the rows stable callbacks", async () => {
    const messages = conversation(20);
    const reported: string[] = [];
    const { update } = await renderList({ messages, onReport: (m) => reported.push(`a:${m.id}`) });
    const report = screen.getAllByTestId('report-button').at(-1)!;
    const icon = report.querySelector('svg use');
    expect(icon?.getAttribute('href')).toMatch(/^#icon-/);
    expect(document.getElementById(icon!.getAttribute('href')!.slice(1))?.tagName.toLowerCase()).toBe('symbol');
    // A new callback from the owner is the one called, without the rows rendering anew.
    await update({ messages, onReport: (m) => reported.push(`b:${m.id}`) });
    fireEvent.click(screen.getAllByTestId('report-button').at(-1)!);
    expect(reported).toEqual(['b:m19']);
  });
});
