import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type * as ReactVirtuoso from 'react-virtuoso';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Message } from '@reverie/shared';
import { initI18n } from '../../../lib/i18n';
import { message } from '../test-helpers';
import { MessageList, type MessageListProps } from './message-list';

/**
 * A reply that grows while the list follows (issue 29, "Long chats"): in a browser its row is
 * measured after each piece, and the list must scroll to its end then — react-virtuoso's own
 * follow answers only new rows. happy-dom measures nothing, so the test hands the list the
 * measure react-virtuoso reports (`totalListHeightChanged`) and a scroller that grew.
 */
const listProps: { current: { totalListHeightChanged?: (height: number) => void } } = { current: {} };
vi.mock('react-virtuoso', async (importOriginal) => {
  const actual = await importOriginal<typeof ReactVirtuoso>();
  const { createElement, forwardRef } = await import('react');
  const Virtuoso = forwardRef(function CapturingVirtuoso(props: object, ref) {
    listProps.current = props;
    return createElement(
      actual.VirtuosoMockContext.Provider,
      { value: { viewportHeight: 400, itemHeight: 40 } },
      createElement(actual.Virtuoso, { ...props, ref } as never),
    );
  });
  return { ...actual, Virtuoso };
});
vi.mock('../row-estimates', () => ({
  rowMetrics: () => null,
  rowEstimates: (messages: Message[]) => messages.map(() => 40),
}));

beforeAll(async () => {
  await initI18n('en');
});

const conversation = (count: number): Message[] =>
  Array.from({ length: count }, (_, i) =>
    message(`m${i}`, { role: i % 2 ? 'bot' : 'user', text: `text ${i}`, state: 'done' }),
  );

const base: Omit<MessageListProps, 'messages'> = {
  botName: 'Aiko',
  botAvatar: null,
  lastBotId: null,
  busy: true,
  waitingForReply: false,
  hasOlder: false,
  isLoadingOlder: false,
  loadOlder: () => {},
  chatId: 'c1',
};

describe('MessageList following a growing reply', () => {
  it('scrolls to the end when the last row grows while the list follows, and not once the user holds the view', async () => {
    const messages = [...conversation(20), message('b9', { state: 'streaming', text: 'The storm came' })];
    render(<MessageList {...base} messages={messages} />);
    const scroller = screen.getByTestId('message-scroller');
    let height = messages.length * 40;
    Object.defineProperty(scroller, 'scrollHeight', { configurable: true, get: () => height });
    Object.defineProperty(scroller, 'clientHeight', { configurable: true, value: 400 });
    act(() => {
      scroller.scrollTop = height - 400;
      fireEvent.scroll(scroller);
    });
    await waitFor(() => expect(listProps.current.totalListHeightChanged).toBeTypeOf('function'));
    const scrolls: number[] = [];
    const native = scroller.scrollTo.bind(scroller);
    vi.spyOn(scroller, 'scrollTo').mockImplementation(((options: ScrollToOptions) => {
      scrolls.push(options.top ?? -1);
      native(options);
    }) as typeof scroller.scrollTo);

    // The streaming reply's row grew by two lines: the end is 60 px further down.
    height += 60;
    act(() => listProps.current.totalListHeightChanged!(height));
    expect(scrolls).toContain(height);

    // The user scrolls up by hand: a row growing no longer moves the view.
    act(() => {
      fireEvent.wheel(scroller);
      scroller.scrollTop = 100;
      fireEvent.scroll(scroller);
    });
    scrolls.length = 0;
    height += 60;
    act(() => listProps.current.totalListHeightChanged!(height));
    expect(scrolls).toEqual([]);
    expect(scroller.scrollTop).toBe(100);
  });
});
