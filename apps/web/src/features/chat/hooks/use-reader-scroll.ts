import { useCallback, useMemo, useRef } from 'react';

/**
 * Who moves a chat's view (docs/chat.md "Long chats"). The list follows the newest message
 * until the user scrolls up by their own hand; from then on only they move the view — not a
 * reply growing, not the list measuring its rows, not a scroll the list asked for earlier
 * (react-virtuoso keeps correcting a scroll to an item for as long as rows are measured: those
 * corrections are dropped once the user holds the view). A send, "jump to latest", or the user
 * back near the end follows again.
 *
 * - `follow`: the list keeps the newest message in view.
 * - `free`: opened at a place (a jump, the reader's last place); the list may still settle there.
 * - `held`: the user scrolled by hand; nothing but them moves the view.
 */
export type ReaderMode = 'follow' | 'free' | 'held';

export interface ReaderScrollOptions {
  /** Changes when the list opens afresh (a jump, the first messages): the mode starts over. */
  windowKey: string;
  /** The list opens at the newest message (following), else at a place. */
  opensFollowing: boolean;
  /** Within this many pixels of the end counts as at the end. */
  edge: number;
  /** The newest messages are loaded (not after a jump back): the end is the newest message. */
  newestLoaded: boolean;
  /** The list follows the newest message again. */
  onFollow: () => void;
  /** The view came to rest (still for REST_MS) while not following: where the reader is. */
  onRest: (scroller: HTMLElement) => void;
}

export interface ReaderScroll {
  mode: () => ReaderMode;
  /** Follow the newest message from now on (a send, "jump to latest"). */
  follow: () => void;
  /** The view is at the end: it follows again when the newest messages are loaded. */
  reachedEnd: () => void;
  /** react-virtuoso's `scrollerRef`. */
  scrollerRef: (node: HTMLElement | Window | null) => void;
}

/** How long after an input (wheel, touch, key, the scroll bar) a scroll is the user's. */
const INPUT_MS = 400;
/** A scroll the list asked for is recognised by where it lands, for this long. */
const ASKED_MS = 500;
/**
 * The reader's place is read once the view has been still this long: not while it moves (reading
 * it lays the page out and measures every row; a scroll through a long chat did it every 150 ms).
 */
const REST_MS = 150;

interface Tracker {
  node: HTMLElement;
  detach: () => void;
}

export function useReaderScroll(options: ReaderScrollOptions): ReaderScroll {
  const latest = useRef(options);
  latest.current = options;
  const state = useRef({ key: options.windowKey, mode: (options.opensFollowing ? 'follow' : 'free') as ReaderMode });
  if (state.current.key !== options.windowKey)
    state.current = { key: options.windowKey, mode: options.opensFollowing ? 'follow' : 'free' };
  const tracker = useRef<Tracker | null>(null);

  const mode = useCallback(() => state.current.mode, []);
  const follow = useCallback(() => {
    state.current.mode = 'follow';
    latest.current.onFollow();
  }, []);
  const reachedEnd = useCallback(() => {
    if (latest.current.newestLoaded) follow();
  }, [follow]);

  const scrollerRef = useCallback(
    (node: HTMLElement | Window | null) => {
      tracker.current?.detach();
      tracker.current = null;
      if (!node || !('scrollTop' in node)) return;
      tracker.current = { node, detach: track(node, state, latest, reachedEnd) };
    },
    [reachedEnd],
  );

  return useMemo(() => ({ mode, follow, reachedEnd, scrollerRef }), [mode, follow, reachedEnd, scrollerRef]);
}

/**
 * Watches one scroller: tells the user's scrolls from the list's own (by input, by where the
 * list's scrolls land, by how the distance to the end changes) and drops the list's scrolls
 * while the user holds the view. Returns the clean-up.
 */
function track(
  node: HTMLElement,
  state: { current: { mode: ReaderMode } },
  options: { current: ReaderScrollOptions },
  reachedEnd: () => void,
): () => void {
  let inputAt = -Infinity;
  let last = { top: node.scrollTop, fromEnd: fromEnd(node) };
  let asked: { top: number; at: number }[] = [];
  let rest: ReturnType<typeof setTimeout> | null = null;
  let movedAt = 0;

  // The list's own scrolls (react-virtuoso's `scrollTo`): dropped while the user holds the
  // view, else noted so that their landing is not taken for the user's.
  const own = Object.prototype.hasOwnProperty.call(node, 'scrollTo');
  const native = node.scrollTo;
  const scrollTo = function (this: HTMLElement, ...args: unknown[]) {
    if (state.current.mode === 'held') return;
    const now = performance.now();
    const wanted = typeof args[0] === 'object' && args[0] !== null ? (args[0] as ScrollToOptions).top : args[1];
    if (typeof wanted === 'number') {
      const max = Math.max(0, node.scrollHeight - node.clientHeight);
      asked = [...asked.filter((a) => now - a.at < ASKED_MS), { top: Math.min(max, Math.max(0, wanted)), at: now }];
    }
    (native as (...a: unknown[]) => void).apply(this, args);
  };
  if (typeof native === 'function')
    Object.defineProperty(node, 'scrollTo', { configurable: true, writable: true, value: scrollTo });

  const onInput = () => {
    inputAt = performance.now();
  };
  // A press on the scroller itself is on its scroll bar (a row's buttons are its children).
  const onPointer = (event: PointerEvent) => {
    if (event.target === node) onInput();
  };
  const onKey = (event: KeyboardEvent) => {
    if (['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End', ' '].includes(event.key)) onInput();
  };

  const onScroll = () => {
    const now = performance.now();
    const top = node.scrollTop;
    const next = { top, fromEnd: fromEnd(node) };
    const previous = last;
    last = next;
    asked = asked.filter((a) => now - a.at < ASKED_MS);
    const landing = asked.findIndex((a) => Math.abs(a.top - top) <= 2);
    if (landing >= 0) asked = asked.slice(landing + 1);
    else {
      const up = top < previous.top - 1;
      const down = top > previous.top + 1;
      // Up and away from the end: the user's (a row measured above the view, or the end
      // shrinking under a view at the end, keeps the distance to the end; a scroll up grows it).
      // Opened at a place, any scroll by hand is the user's: the list stops settling there.
      const away = up && next.fromEnd > previous.fromEnd + 1;
      const byHand = now - inputAt < INPUT_MS && state.current.mode === 'free' && (up || down);
      if (away || byHand) state.current.mode = 'held';
      if (down && state.current.mode !== 'follow' && next.fromEnd <= options.current.edge) reachedEnd();
    }
    // One timer while the view moves, put off until it has been still for REST_MS.
    movedAt = now;
    rest ??= setTimeout(atRest, REST_MS);
  };
  const atRest = () => {
    const still = performance.now() - movedAt;
    if (still < REST_MS - 1) {
      rest = setTimeout(atRest, REST_MS - still);
      return;
    }
    rest = null;
    if (node.isConnected && state.current.mode !== 'follow') options.current.onRest(node);
  };

  node.addEventListener('scroll', onScroll, { passive: true });
  node.addEventListener('wheel', onInput, { passive: true });
  node.addEventListener('touchmove', onInput, { passive: true });
  node.addEventListener('pointerdown', onPointer, { passive: true });
  node.addEventListener('keydown', onKey);
  return () => {
    node.removeEventListener('scroll', onScroll);
    node.removeEventListener('wheel', onInput);
    node.removeEventListener('touchmove', onInput);
    node.removeEventListener('pointerdown', onPointer);
    node.removeEventListener('keydown', onKey);
    if (rest) clearTimeout(rest);
    if (own) Object.defineProperty(node, 'scrollTo', { configurable: true, writable: true, value: native });
    else delete (node as { scrollTo?: unknown }).scrollTo;
  };
}

const fromEnd = (node: HTMLElement) => node.scrollHeight - node.scrollTop - node.clientHeight;
