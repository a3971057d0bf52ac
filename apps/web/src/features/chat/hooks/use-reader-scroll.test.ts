import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useReaderScroll, type ReaderScrollOptions } from './use-reader-scroll';

/**
 * Who moves a chat's view (docs/chat.md "Long chats"): the user's scroll up stops the list
 * following, and from then on the list's own scrolls (react-virtuoso's corrections of an
 * earlier scroll) are dropped. happy-dom lays nothing out: a 4 000 px conversation in a
 * 400 px view is given by hand.
 */
function setUp(options: Partial<ReaderScrollOptions> = {}) {
  const node = document.createElement('div');
  let height = 4000;
  Object.defineProperty(node, 'scrollHeight', { configurable: true, get: () => height });
  Object.defineProperty(node, 'clientHeight', { configurable: true, value: 400 });
  document.body.append(node);
  const onFollow = vi.fn();
  const onRest = vi.fn();
  const hook = renderHook(() =>
    useReaderScroll({
      windowKey: 'w',
      opensFollowing: true,
      edge: 160,
      newestLoaded: true,
      onFollow,
      onRest,
      ...options,
    }),
  );
  const reader = hook.result.current;
  reader.scrollerRef(node);
  /** The user (or the browser) scrolls: the position changes, then the event comes. */
  const scroll = (top: number) => {
    node.scrollTop = top;
    node.dispatchEvent(new Event('scroll'));
  };
  return { node, reader, scroll, onFollow, onRest, grow: (by: number) => (height += by) };
}

describe('useReaderScroll', () => {
  it("holds the view once the user scrolls up: the list's later scrolls to the end are dropped", () => {
    const { node, reader, scroll } = setUp();
    // The list's own scroll to the end, and its landing: still following.
    node.scrollTo({ top: 3600 });
    scroll(3600);
    expect(reader.mode()).toBe('follow');
    // The user scrolls up 3 000 px: held; a correction of the earlier scroll is dropped.
    scroll(600);
    expect(reader.mode()).toBe('held');
    node.scrollTo({ top: 3600 });
    expect(node.scrollTop).toBe(600);
    // A send (or "jump to latest") follows again: the list scrolls.
    reader.follow();
    node.scrollTo({ top: 3600 });
    expect(node.scrollTop).toBe(3600);
  });

  it('a reply growing or the end shrinking under a view at the end is not the user scrolling up', () => {
    const { reader, scroll, grow } = setUp();
    scroll(3600);
    grow(300); // the reply grows below the view: the distance to the end grows, the view stays
    scroll(3600);
    expect(reader.mode()).toBe('follow');
    grow(-500); // the typing indicator goes: the browser pulls the view up to the new end
    scroll(3400);
    expect(reader.mode()).toBe('follow');
  });

  it('follows again when the user scrolls back down near the end; tells the place while not following', async () => {
    const { reader, scroll, onFollow, onRest } = setUp();
    scroll(3600);
    scroll(1000);
    expect(reader.mode()).toBe('held');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(onRest).toHaveBeenCalled();
    scroll(3500);
    expect(reader.mode()).toBe('follow');
    expect(onFollow).toHaveBeenCalledTimes(1);
  });

  it('opened at a place, the list settles there until the user scrolls by hand', () => {
    const { node, reader, scroll } = setUp({ opensFollowing: false });
    expect(reader.mode()).toBe('free');
    node.scrollTo({ top: 1200 });
    scroll(1200);
    node.scrollTo({ top: 1180 }); // a row measured: the list corrects its own scroll, upwards
    scroll(1180);
    expect(reader.mode()).toBe('free');
    node.dispatchEvent(new Event('wheel'));
    scroll(1400);
    expect(reader.mode()).toBe('held');
    node.scrollTo({ top: 1180 });
    expect(node.scrollTop).toBe(1400);
  });
});
