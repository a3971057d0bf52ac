import '../texts';
import {
  forwardRef,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type ReactNode,
  type Ref,
} from 'react';
import { Virtuoso, type Components, type VirtuosoHandle } from 'react-virtuoso';
import {
  ArrowDown,
  Brain,
  ChevronLeft,
  ChevronRight,
  Copy,
  EllipsisVertical,
  Flag,
  Loader2,
  Phone,
  Play,
  RefreshCw,
} from 'lucide-react';
import type { Message } from '@reverie/shared';
import { useTranslation } from '../../../lib/i18n';
import { Icon } from '../../../components/ui/icon';
import { IconSprite } from '../../../components/ui/icon-sprite';
import { formatMessageDay, localDay } from '../../../lib/message-time';
import { rememberPlace } from '../scroll-memory';
import { useReaderScroll } from '../hooks/use-reader-scroll';
import { rowEstimates, rowMetrics } from '../row-estimates';
import { MessageBubble, TypingIndicator, type MessageBubbleProps } from './message-bubble';

type BubbleActions = Pick<
  MessageBubbleProps,
  | 'onRegenerate'
  | 'onSelectAlternative'
  | 'onReport'
  | 'onResend'
  | 'renderPicture'
  | 'renderMessageExtras'
  | 'onMessageAction'
>;

export interface MessageListProps extends BubbleActions {
  messages: Message[];
  botName: string;
  botAvatar: string | null;
  /** The signed-in user (a shared scene shows others' messages on the left). */
  viewer?: string;
  /** A group chat: its characters' names, for the AI disclosure. */
  groupNames?: string;
  lastBotId: string | null;
  busy: boolean;
  /** A message was sent and the reply has not started: a typing indicator at the end. */
  waitingForReply: boolean;
  /** The reply waiting for the model to load: its typing indicator says so. */
  warmingUpId?: string | null;
  hasOlder: boolean;
  isLoadingOlder: boolean;
  loadOlder: () => void;
  /** The loaded messages stop before the newest (after a jump back): more load going down. */
  hasNewer?: boolean;
  isLoadingNewer?: boolean;
  loadNewer?: () => void;
  /**
   * The messages that arrived since the last jump while the newest were not loaded: they are not
   * in `messages`, and "jump to latest" counts them (with what it counted before the jump).
   */
  awayCount?: number;
  /** Back to the newest messages when they are not loaded ("jump to latest" after a jump). */
  onJumpToLatest?: () => void;
  /** The message to open at (a jump to a date, the reader's last place); else the newest. */
  anchorId?: string | null;
  /** How far the anchor's top was above the top of the view (the reader's last place), in px. */
  anchorOffset?: number;
  /** Where the list opens without an `anchorId`: at the newest message (default) or the first. */
  openAt?: 'end' | 'start';
  /** Changes when the list opens afresh at another place (a jump). */
  windowKey?: string | number;
  /** Changes with every send: the view goes to the newest message, the user's own. */
  sentCount?: number;
  /** The chat whose reading place is remembered for the session; none for a preview. */
  chatId?: string;
  /** Shown above the first message once the whole history is loaded (the character's intro). */
  intro?: ReactNode;
}

/**
 * The bubbles' callbacks, each stable while it is given (the latest one is called): the list's
 * owner passes new functions on every render, and a memoised row then renders again only when
 * its own message (or `busy`, the names) changes — not on every scroll step, page or keystroke.
 * The renderers (`renderPicture`, `renderMessageExtras`) draw, so they are kept as given.
 */
function useStableActions(actions: BubbleActions): BubbleActions {
  const latest = useRef(actions);
  useLayoutEffect(() => {
    latest.current = actions;
  });
  const regenerate = Boolean(actions.onRegenerate);
  const selectAlternative = Boolean(actions.onSelectAlternative);
  const report = Boolean(actions.onReport);
  const resend = Boolean(actions.onResend);
  const messageAction = Boolean(actions.onMessageAction);
  const callbacks = useMemo<BubbleActions>(
    () => ({
      onRegenerate: regenerate ? (message) => latest.current.onRegenerate?.(message) : undefined,
      onSelectAlternative: selectAlternative
        ? (message, index) => latest.current.onSelectAlternative?.(message, index)
        : undefined,
      onReport: report ? (message) => latest.current.onReport?.(message) : undefined,
      onResend: resend ? (message) => latest.current.onResend?.(message) : undefined,
      onMessageAction: messageAction
        ? (action, message) => latest.current.onMessageAction?.(action, message)
        : undefined,
    }),
    [regenerate, selectAlternative, report, resend, messageAction],
  );
  const { renderPicture, renderMessageExtras } = actions;
  return useMemo(
    () => ({ ...callbacks, renderPicture, renderMessageExtras }),
    [callbacks, renderPicture, renderMessageExtras],
  );
}

/**
 * The icons every row repeats (copy, report, regenerate, the menu, voice, swipes, "remembered",
 * said in a call): drawn once, each row's a `<use>` of it (`IconSprite`).
 */
const ROW_ICONS = [Copy, Flag, RefreshCw, EllipsisVertical, Play, ChevronLeft, ChevronRight, Brain, Phone];

/** Within this many pixels of the end counts as at the newest message. */
const EDGE = 160;
/**
 * Rows rendered beyond the view (px; react-virtuoso's `increaseViewportBy`): each row is drawn
 * as it comes within this distance, one or two in a frame. No look-ahead in batches (`overscan`):
 * four or five rows drawn in one frame take two frames on a phone, every few frames
 * (bench/README.md "Long-chat scroll").
 */
const AROUND = { top: 300, bottom: 200 };
/** Far from any real index, so that older messages can be put in front (Virtuoso's `firstItemIndex`). */
const FIRST_INDEX = 1_000_000_000;

/**
 * Each message is measured in its own box; `role="none"` keeps one list for the screen reader
 * (the `log` around them) while every bubble stays the `<li>` it is elsewhere. Each box is
 * contained (`contain: content`: its layout and paint are its own, so a row put in or taken out
 * while scrolling does not lay out or paint the others again) — except the row whose menu is
 * open, whose menu reaches out of it (docs/chat.md "Long chats").
 */
const Item: Components<Message, ListContext>['Item'] = ({ children, item, context: _context, ...props }) => (
  <ul
    role="none"
    {...props}
    data-message-id={item.id}
    className="m-0 list-none px-3 pb-3 sm:px-4 [&:not(:has([aria-expanded=true]))]:[contain:content]"
  >
    {children}
  </ul>
);

/** Older or newer messages: the button that loads them, or that they are loading. */
function LoadMore({
  loading,
  loadingText,
  label,
  onLoad,
}: {
  loading: boolean;
  loadingText: string;
  label: string;
  onLoad?: () => void;
}) {
  return (
    <div className="flex justify-center py-2">
      {loading ? (
        <span className="flex items-center gap-2 text-xs text-muted" role="status">
          <Icon icon={Loader2} size="sm" className="animate-spin" />
          {loadingText}
        </span>
      ) : (
        <button
          type="button"
          onClick={onLoad}
          className="rounded-full px-3 py-1 text-xs text-muted hover:bg-white/5 hover:text-fg"
        >
          {label}
        </button>
      )}
    </div>
  );
}

/** The height a day's separator adds to its row (px), for the rows' first guesses. */
const DAY_SEPARATOR_HEIGHT = 36;

/**
 * The messages that begin a day in the reader's time zone: each gets the day above it. The first
 * loaded message only when nothing older is left to load (else the day may have begun above it;
 * its separator comes, if it does, with the older page). The same days whichever way the
 * messages were loaded: from the newest, after a jump to a date or to the first message.
 */
export function dayStarts(messages: Message[], hasOlder: boolean): Set<string> {
  const starts = new Set<string>();
  let previous: number | null = null;
  for (const message of messages) {
    const day = localDay(message.created_at);
    if (previous === null ? !hasOlder : day !== previous) starts.add(message.id);
    previous = day;
  }
  return starts;
}

/** The day above its first message ("Today", "Yesterday", "Saturday, 28 November"). */
function DaySeparator({ iso }: { iso: string }) {
  const { t, i18n } = useTranslation();
  const label = formatMessageDay(iso, i18n.language, { today: t('chat.today'), yesterday: t('chat.yesterday') });
  if (!label) return null;
  return (
    <li role="separator" aria-label={label} data-testid="day-separator" className="flex justify-center pt-1 pb-3">
      <time
        dateTime={iso}
        className="rounded-full border border-white/10 bg-surface px-3 py-0.5 text-xs font-medium text-muted"
      >
        {label}
      </time>
    </li>
  );
}

/** What the list's header and footer show (Virtuoso hands it to them as `context`). */
interface ListContext {
  header: ReactNode;
  footer: ReactNode;
}

const Header: Components<Message, ListContext>['Header'] = ({ context }) => <>{context?.header}</>;
const Footer: Components<Message, ListContext>['Footer'] = ({ context }) => <>{context?.footer}</>;

/**
 * The first message in view and how far its top is above the top of the view, in px: the place
 * the chat reopens at (the rows rendered above the view, Virtuoso's overscan, do not count).
 */
export function placeInView(scroller: HTMLElement): { id: string; offset: number } | null {
  const top = scroller.getBoundingClientRect().top;
  for (const row of scroller.querySelectorAll<HTMLElement>('[data-message-id]')) {
    const box = row.getBoundingClientRect();
    if (box.bottom > top + 1) return { id: row.dataset.messageId!, offset: Math.round(top - box.top) };
  }
  return null;
}

/**
 * Keeps the index of the first loaded message stable as older pages are put in front: the
 * view stays on the message the user was reading. A new window (a jump) starts over.
 */
export function useFirstItemIndex(messages: Message[], windowKey: unknown): number {
  const state = useRef({ key: windowKey, firstId: null as string | null, index: FIRST_INDEX });
  const current = state.current;
  const firstId = messages[0]?.id ?? null;
  if (current.key !== windowKey) {
    state.current = { key: windowKey, firstId, index: FIRST_INDEX };
  } else if (firstId !== current.firstId) {
    const shift = current.firstId === null ? -1 : messages.findIndex((m) => m.id === current.firstId);
    state.current = { key: windowKey, firstId, index: shift > 0 ? current.index - shift : current.index };
  }
  return state.current.index;
}

/**
 * The conversation, oldest at the top, virtualised (react-virtuoso, docs/ARCHITECTURE.md):
 * only the messages near the view are in the page, so a chat of any length scrolls smoothly.
 * Pages load going up (and going down after a jump); new text keeps the view at the bottom
 * while the user is there, and a "jump to latest" button counts what arrived while they read
 * further up. A send always brings the user to their message.
 */
export function MessageList({
  messages,
  botName,
  botAvatar,
  viewer,
  groupNames,
  lastBotId,
  busy,
  waitingForReply,
  warmingUpId = null,
  hasOlder,
  isLoadingOlder,
  loadOlder,
  hasNewer = false,
  isLoadingNewer = false,
  loadNewer,
  awayCount = 0,
  onJumpToLatest,
  anchorId = null,
  anchorOffset = 0,
  openAt = 'end',
  windowKey = 0,
  sentCount = 0,
  chatId,
  intro,
  ...given
}: MessageListProps) {
  const { t } = useTranslation();
  const actions = useStableActions(given);
  const virtuoso = useRef<VirtuosoHandle>(null);
  const [atBottom, setAtBottom] = useState(true);
  /** The newest message when the user left the bottom: what came after it is "new". */
  const [seen, setSeen] = useState<Pick<Message, 'id' | 'client_id'> | null>(null);
  const firstItemIndex = useFirstItemIndex(messages, windowKey);
  const lastMessage = messages.at(-1);
  const lastText = lastMessage?.text.length ?? 0;

  const latest = useRef(messages);
  latest.current = messages;

  // Where the user reads, kept for when they come back to the chat; nothing at the newest.
  const keepPlace = useCallback(
    (scroller: HTMLElement) => {
      const place = chatId ? placeInView(scroller) : null;
      const shown = place && latest.current.find((m) => m.id === place.id);
      if (chatId && shown && !shown.id.startsWith('local-'))
        rememberPlace(chatId, { id: shown.id, at: shown.created_at, offset: place.offset });
    },
    [chatId],
  );
  const forgetPlace = useCallback(() => {
    if (chatId) rememberPlace(chatId, null);
  }, [chatId]);

  // Who moves the view: the list follows the newest message until the user scrolls up by hand.
  const anchorIndex = anchorId ? messages.findIndex((m) => m.id === anchorId) : -1;
  const listKey = `${windowKey}:${messages.length > 0}`;
  // The rows' heights guessed from their text when the list opens (row-estimates.ts): react-virtuoso
  // reads them only then, before it has measured a row, and keeps their mean for older pages.
  const days = useMemo(() => dayStarts(messages, hasOlder), [messages, hasOlder]);
  const estimates = useRef<{ key: string; sizes: number[] } | null>(null);
  if (estimates.current?.key !== listKey)
    estimates.current = {
      key: listKey,
      sizes: rowEstimates(messages, rowMetrics(window.innerWidth)).map((size, i) =>
        i > 0 && days.has(messages[i]!.id) ? size + DAY_SEPARATOR_HEIGHT : size,
      ),
    };
  const reader = useReaderScroll({
    windowKey: listKey,
    opensFollowing: anchorIndex < 0 && openAt === 'end',
    edge: EDGE,
    newestLoaded: !hasNewer,
    onFollow: forgetPlace,
    onRest: keepPlace,
  });

  const onAtBottom = useCallback(
    (bottom: boolean) => {
      setAtBottom(bottom);
      // What the user has seen: up to the newest message with something to read (a reply
      // that has not started yet is new when its text comes).
      const list = latest.current;
      let last = list.length - 1;
      while (last >= 0 && list[last]!.state === 'streaming' && list[last]!.text === '') last -= 1;
      const message = list[last];
      setSeen(bottom || !message ? null : { id: message.id, client_id: message.client_id });
      if (bottom && list.length > 0) reader.reachedEnd();
    },
    [reader],
  );

  const loadedCount = useMemo(() => {
    if (atBottom || hasNewer || seen === null) return 0;
    // By id, or by client id: the user's own message is replaced by the saved one.
    const index = messages.findIndex((m) => m.id === seen.id || (seen.client_id && m.client_id === seen.client_id));
    if (index < 0) return 0;
    return messages.slice(index + 1).filter((m) => !(m.state === 'streaming' && m.text === '')).length;
  }, [atBottom, hasNewer, seen, messages]);
  // After a jump back (the newest messages not loaded) the count goes on: what was counted when
  // the window changed, plus what arrived since (`awayCount`). Back at the newest, the loaded
  // messages are counted again.
  const counted = useRef({ windowKey, carried: 0, shown: 0 });
  if (counted.current.windowKey !== windowKey)
    counted.current = { windowKey, carried: counted.current.shown, shown: counted.current.shown };
  const newCount = hasNewer ? counted.current.carried + awayCount : loadedCount;
  counted.current.shown = newCount;

  // A send: to the newest message (the user's own), even from far up.
  const sent = useRef(sentCount);
  useEffect(() => {
    if (sent.current === sentCount) return;
    sent.current = sentCount;
    if (hasNewer) return; // the list is reopening at the newest messages
    reader.follow();
    virtuoso.current?.scrollToIndex({ index: 'LAST', align: 'end' });
  }, [sentCount, hasNewer, reader]);

  // A reply growing (or a picture loading) while the list follows: stay at the end.
  useEffect(() => {
    if (reader.mode() === 'follow' && !hasNewer) virtuoso.current?.autoscrollToBottom();
  }, [lastText, waitingForReply, hasNewer, reader]);

  // The scroller itself: a follow after a row grew scrolls it to its end. (react-virtuoso's
  // `autoscrollToBottom` does nothing once the growth has taken the end out of its "at the
  // bottom"; its scroll goes through the scroller's `scrollTo`, which use-reader-scroll.ts
  // knows for the list's own.)
  const scrollerNode = useRef<HTMLElement | null>(null);
  const { scrollerRef: trackScroller } = reader;
  const scrollerRef = useCallback(
    (node: HTMLElement | Window | null) => {
      scrollerNode.current = node && 'scrollTop' in node ? node : null;
      trackScroller(node);
    },
    [trackScroller],
  );
  const onListHeight = useCallback(() => {
    const node = scrollerNode.current;
    if (!node || reader.mode() !== 'follow' || hasNewer) return;
    if (node.scrollHeight - node.scrollTop - node.clientHeight > 1) node.scrollTo({ top: node.scrollHeight });
  }, [reader, hasNewer]);

  const jumpToLatest = () => {
    if (hasNewer && onJumpToLatest) return onJumpToLatest();
    reader.follow();
    virtuoso.current?.scrollToIndex({ index: 'LAST', align: 'end', behavior: 'auto' });
  };

  const components = useMemo<Components<Message, ListContext>>(
    () => ({
      List: forwardRef<HTMLDivElement, { children?: ReactNode; style?: CSSProperties; context?: ListContext }>(
        function MessageLog({ children, style, context: _context, ...props }, ref) {
          return (
            <ol
              ref={ref as unknown as Ref<HTMLOListElement>}
              {...props}
              style={style}
              role="log"
              aria-label={t('chat.messages_label', { name: botName })}
              className="mx-auto w-full max-w-3xl"
            >
              {children}
            </ol>
          );
        },
      ),
      Item,
      Header,
      Footer,
    }),
    [t, botName],
  );

  const header = hasOlder ? (
    <LoadMore
      loading={isLoadingOlder}
      loadingText={t('chat.loading_older')}
      label={t('chat.load_older')}
      onLoad={loadOlder}
    />
  ) : (
    <div className="mx-auto w-full max-w-3xl px-3 pt-4 pb-3 sm:px-4">{intro}</div>
  );

  const footer = (
    <div className="mx-auto w-full max-w-3xl px-3 pb-4 sm:px-4">
      {hasNewer && (
        <LoadMore
          loading={isLoadingNewer}
          loadingText={t('chat.loading_newer')}
          label={t('chat.load_newer')}
          onLoad={loadNewer}
        />
      )}
      {waitingForReply && (
        <div className="flex items-end gap-2">
          {botAvatar ? (
            <img src={botAvatar} alt="" className="h-8 w-8 shrink-0 rounded-full object-cover" />
          ) : (
            <span className="h-8 w-8 shrink-0 rounded-full bg-surface" aria-hidden="true" />
          )}
          <div className="rounded-2xl rounded-bl-sm border border-white/5 bg-surface px-4 py-2.5">
            <TypingIndicator name={botName} />
          </div>
        </div>
      )}
    </div>
  );

  const showJump = (!atBottom && messages.length > 0) || hasNewer;

  return (
    <div className="relative flex min-h-0 flex-1 flex-col">
      <IconSprite icons={ROW_ICONS}>
        <Virtuoso<Message, ListContext>
          // A new window (a jump) or the first messages arriving: open afresh at the right place.
          key={listKey}
          ref={virtuoso}
          scrollerRef={scrollerRef}
          data-testid="message-scroller"
          // An opaque background: the browser scrolls the list on the compositor instead of
          // painting it again at each step (without one it may not, to keep text sharp).
          className="flex-1 overscroll-contain bg-bg"
          data={messages}
          firstItemIndex={firstItemIndex}
          heightEstimates={estimates.current.sizes}
          initialTopMostItemIndex={
            anchorIndex >= 0
              ? { index: anchorIndex, align: 'start', offset: anchorOffset }
              : openAt === 'start'
                ? { index: 0, align: 'start' }
                : { index: 'LAST', align: 'end' }
          }
          computeItemKey={(_, message) => message.id}
          // Only while the list follows: never once the user has scrolled up by hand (Virtuoso's own
          // "at the bottom" is also true while one of its scrolls is still settling).
          followOutput={() => (reader.mode() === 'follow' && !hasNewer ? 'auto' : false)}
          atBottomThreshold={EDGE}
          atBottomStateChange={onAtBottom}
          // A row that grew once measured (a streaming reply's new line, its action row when it
          // ends, a picture loaded): while the list follows, the end stays in view. The effect
          // above runs before the row is measured, and followOutput only answers new rows.
          totalListHeightChanged={onListHeight}
          startReached={() => {
            if (hasOlder && !isLoadingOlder) loadOlder();
          }}
          endReached={() => {
            if (hasNewer && !isLoadingNewer) loadNewer?.();
          }}
          increaseViewportBy={AROUND}
          // Rows measured as soon as the browser has laid them out, not in the next frame (where
          // reading their size lays the page out again, and a scroll up is corrected a frame late).
          skipAnimationFrameInResizeObserver
          components={components}
          context={{ header, footer }}
          itemContent={(_, message) => (
            <>
              {days.has(message.id) && <DaySeparator iso={message.created_at} />}
              <MessageBubble
                message={message}
                botName={botName}
                botAvatar={botAvatar}
                viewer={viewer}
                groupNames={groupNames}
                isLastBot={message.id === lastBotId}
                busy={busy}
                warmingUp={message.id === warmingUpId}
                {...actions}
              />
            </>
          )}
        />
      </IconSprite>
      {showJump && (
        <button
          type="button"
          onClick={jumpToLatest}
          data-testid="jump-to-latest"
          aria-label={newCount > 0 ? t('chat.jump_to_latest_count', { count: newCount }) : t('chat.jump_to_latest')}
          className="absolute right-4 bottom-3 flex h-10 min-w-10 items-center justify-center gap-1 rounded-full border border-white/10 bg-surface px-3 text-sm text-fg shadow-lg hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-primary"
        >
          <Icon icon={ArrowDown} size="sm" />
          {newCount > 0 && (
            <span className="font-medium tabular-nums" data-testid="new-count">
              {newCount}
            </span>
          )}
        </button>
      )}
    </div>
  );
}
