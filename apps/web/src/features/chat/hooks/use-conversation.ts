import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { MessageKind, type Message, type StreamEvent } from '@reverie/shared';
import { ApiRequestError } from '../../../lib/api-client';
import { attachStream } from '../api/attach-stream';
import { getHistory, useHistory, type HistoryAnchor } from '../api/get-history';
import { chatKeys } from '../api/keys';
import { regenerateMessage } from '../api/regenerate-message';
import { selectAlternative } from '../api/select-alternative';
import { sendMessage } from '../api/send-message';
import { stopGeneration } from '../api/stop-generation';
import { continueScene, speak } from '../api/scene';
import { openingAnchor } from '../scroll-memory';
import { emptyMessageList, lastBotMessage, listMessages, messageListReducer, streamingMessage } from '../message-state';

/** A problem the conversation shows above the composer (the stream's own failures go on the message). */
export interface ConversationError {
  /** The API's code (`rate_limited`, `generation_in_progress`, `not_found`, …) or `network`. */
  code: string;
  /** Seconds to wait, from `Retry-After` on a 429. */
  retryAfter: number | null;
  detail: string | null;
}

/** How many times a dropped stream is re-attached before the reply is given up. */
const RECONNECT_ATTEMPTS = 3;
const reconnectDelay = (attempt: number) => 500 * 2 ** attempt;

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

const newClientId = () => crypto.randomUUID();

function localUserMessage(chatId: string, clientId: string, text: string): Message {
  return {
    id: `local-${clientId}`,
    chat_id: chatId,
    client_id: clientId,
    role: 'user',
    kind: MessageKind.Text,
    text,
    spoken: false,
    proactive: false,
    img_url: null,
    has_audio: false,
    state: 'streaming',
    created_at: new Date().toISOString(),
    reply_to: null,
    alt_index: 0,
    alt_count: 1,
    error_code: null,
    notice: null,
    edited_at: null,
  };
}

const toConversationError = (error: ApiRequestError): ConversationError => ({
  code: error.status === 0 ? 'network' : (error.code ?? (error.status === 429 ? 'rate_limited' : 'unknown')),
  retryAfter: error.retryAfterSeconds,
  detail: error.data?.detail ?? null,
});

type Opener = (onEvent: (event: StreamEvent) => void, signal: AbortSignal) => Promise<void>;

/** How long after a reply ends its long-term memories are asked for (the server notes them as it ends). */
const CITATIONS_DELAY_MS = 800;

/**
 * One open chat: its history (older pages on demand), the live messages from the streams,
 * and the actions (send, stop, regenerate or retry, swipe between alternatives). A stream
 * that drops is re-attached (or the same message re-sent) a few times; a reply that still
 * cannot be followed is shown as failed with a retry, never as an endless typing indicator.
 */
export function useConversation(chatId: string) {
  const client = useQueryClient();
  const [state, dispatch] = useReducer(messageListReducer, emptyMessageList);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ConversationError | null>(null);
  /** The reply waiting for the model to load (a `status` event), until its first text. */
  const [warmingUpId, setWarmingUpId] = useState<string | null>(null);
  /** Where the loaded window of the history starts (a jump moves it; docs/chat.md "Long chats"). */
  const [anchor, setAnchor] = useState<HistoryAnchor>(() => openingAnchor(chatId));
  /** Bumped by every jump: the list opens afresh at the new place. */
  const [windowKey, setWindowKey] = useState(0);
  /** Bumped by every send: the list brings the user to their message. */
  const [sentCount, setSentCount] = useState(0);
  const history = useHistory(chatId, anchor);
  const mergedPages = useRef(new WeakSet<object>());
  const stream = useRef<AbortController | null>(null);
  /** The live replies found in the list that this window has followed (each once; see below). */
  const followedLive = useRef(new Set<string>());
  /** The loaded window does not reach the newest message (after a jump back in time). */
  const hasNewer = Boolean(history.hasPreviousPage);
  const detached = useRef(false);
  detached.current = hasNewer;
  /**
   * The messages that arrived while the newest ones were not loaded (after a jump back): not put
   * into the list, but counted on its "jump to latest" button. Each once, by id; a reply counts
   * once it has text. Every jump starts over (the list carries what it counted before).
   */
  const arrivedAway = useRef(new Set<string>());
  const [awayCount, setAwayCount] = useState(0);

  // History pages go into the list once each: older ones above, newer ones (after a jump) below.
  useEffect(() => {
    const pages = history.data?.pages ?? [];
    const firstMerged = pages.findIndex((page) => mergedPages.current.has(page));
    if (firstMerged > 0)
      for (let i = firstMerged - 1; i >= 0; i -= 1) dispatch({ type: 'append', messages: pages[i]!.results });
    for (const page of pages.slice(Math.max(firstMerged, 0))) {
      if (!mergedPages.current.has(page)) dispatch({ type: 'prepend', messages: page.results });
    }
    for (const page of pages) mergedPages.current.add(page);
  }, [history.data]);

  /** Opens the history elsewhere: the first message, a date, or back at the newest. */
  const jumpTo = useCallback((next: HistoryAnchor) => {
    mergedPages.current = new WeakSet();
    followedLive.current = new Set();
    arrivedAway.current = new Set();
    setAwayCount(0);
    dispatch({ type: 'reset' });
    setAnchor(next);
    setWindowKey((key) => key + 1);
  }, []);

  // Leaving the page closes the stream; the server goes on writing and saves the reply.
  useEffect(() => () => stream.current?.abort(), []);

  /**
   * `inPlace`: the stream rewrites a reply the list shows (a regenerate or a retry): applied to
   * it even in an older window (after a jump), where it is, and never counted as new.
   */
  const handleEvent = useCallback((event: StreamEvent, inPlace = false) => {
    switch (event.event) {
      case 'delta':
        setWarmingUpId(null);
        if (detached.current && !inPlace) break;
        dispatch({ type: 'delta', messageId: event.data.message_id, text: event.data.text });
        break;
      case 'status':
        setWarmingUpId(event.data.status === 'warming_up' ? event.data.message_id : null);
        break;
      case 'error':
        setWarmingUpId(null);
        if (event.data.message_id) {
          dispatch({
            type: 'patch',
            messageId: event.data.message_id,
            changes: { state: 'failed', error_code: event.data.code },
          });
        } else setError({ code: event.data.code, retryAfter: null, detail: event.data.detail });
        break;
      default: {
        // Away from the newest messages (a jump): they are read again on the way back, and
        // counted meanwhile.
        const message = event.data;
        // A reply written in place changes the shown one only: after a jump it may not be
        // loaded (then nothing changes here), and never goes to the end of the list.
        if (inPlace && (detached.current || message.role === 'bot')) dispatch({ type: 'replace', message });
        else if (!detached.current) dispatch({ type: 'upsert', message });
        else if (!(message.state === 'streaming' && message.text === '') && !arrivedAway.current.has(message.id)) {
          arrivedAway.current.add(message.id);
          setAwayCount(arrivedAway.current.size);
        }
      }
    }
  }, []);

  /**
   * A finished reply's long-term memories ("remembered" under it): the server notes which
   * memories its prompt held and which it drew on as the reply ends, after the stream's last
   * event; the newest messages are read once, a moment later, and the reply gets them.
   */
  const readCitations = useCallback(
    async (reply: Message) => {
      if (reply.memories || reply.state !== 'done') return;
      await new Promise((resolve) => setTimeout(resolve, CITATIONS_DELAY_MS));
      try {
        const page = await getHistory(chatId, { anchor: { kind: 'latest' } }, 4);
        const saved = page.results.find((message) => message.id === reply.id);
        if (saved?.memories) dispatch({ type: 'patch', messageId: reply.id, changes: { memories: saved.memories } });
      } catch {
        // Nothing shown: the mark appears when the chat is opened again.
      }
    },
    [chatId],
  );

  /**
   * Reads one stream to its end. `reopen` continues after a drop when nothing of the reply
   * is known yet (a send repeats its client id); once the reply's id is known, the stream
   * is re-attached by that id.
   */
  const run = useCallback(
    async (open: Opener, reopen: Opener | null, onRejected?: (error: ApiRequestError) => void, inPlace = false) => {
      stream.current?.abort();
      const controller = new AbortController();
      stream.current = controller;
      setBusy(true);
      setError(null);
      let replyId: string | null = null;
      let finished = false;
      let received = false;
      let ended: Message | null = null;
      const onEvent = (event: StreamEvent) => {
        if (controller.signal.aborted) return;
        received = true;
        if (event.event === 'bot_message') {
          replyId = event.data.id;
          finished = event.data.state !== 'streaming';
          ended = finished ? event.data : null;
        }
        if (event.event === 'error') finished = true;
        handleEvent(event, inPlace);
      };
      try {
        for (let attempt = 0; attempt <= RECONNECT_ATTEMPTS; attempt += 1) {
          if (attempt > 0) {
            await wait(reconnectDelay(attempt - 1), controller.signal);
            if (controller.signal.aborted) return;
          }
          const opener: Opener | null =
            attempt === 0
              ? open
              : replyId
                ? (handler, signal) => attachStream(chatId, replyId!, handler, signal)
                : reopen;
          if (!opener) break;
          try {
            await opener(onEvent, controller.signal);
            // A send answered without a written reply (a picture, the crisis reply, a
            // refusal) ends with its last event; a reply still streaming was cut off.
            if (finished || (received && !replyId)) {
              if (ended) void readCitations(ended);
              return;
            }
          } catch (failure) {
            if (controller.signal.aborted) return;
            if (failure instanceof ApiRequestError && failure.status > 0) {
              onRejected?.(failure);
              setError(toConversationError(failure));
              return;
            }
          }
        }
        // The connection could not be brought back: end the reply here, with a retry.
        if (replyId)
          dispatch({ type: 'patch', messageId: replyId, changes: { state: 'failed', error_code: 'network' } });
        onRejected?.(new ApiRequestError(0, null));
        setError({ code: 'network', retryAfter: null, detail: null });
      } finally {
        if (stream.current === controller) {
          stream.current = null;
          setBusy(false);
          void client.invalidateQueries({ queryKey: chatKeys.allLists });
        }
      }
    },
    [chatId, client, handleEvent, readCitations],
  );

  const sendWithClientId = useCallback(
    (clientId: string, text: string) => {
      // Sent from far back in the history: the list goes to the newest messages, then this one.
      if (detached.current) jumpTo({ kind: 'latest' });
      setSentCount((count) => count + 1);
      dispatch({ type: 'upsert', message: localUserMessage(chatId, clientId, text) });
      const open: Opener = (handler, signal) => sendMessage(chatId, { client_id: clientId, text }, handler, signal);
      return run(open, open, () =>
        dispatch({
          type: 'patch',
          messageId: `local-${clientId}`,
          changes: { state: 'failed', error_code: 'not_sent' },
        }),
      );
    },
    [chatId, run, jumpTo],
  );

  /**
   * Sends a message (trimmed); false when it cannot be sent now. A message kept from before
   * (a guest's, across the sign-up) brings its own client id: the server takes it once.
   */
  const send = useCallback(
    (text: string, clientId: string = newClientId()) => {
      const trimmed = text.trim();
      if (!trimmed || busy) return false;
      void sendWithClientId(clientId, trimmed);
      return true;
    },
    [busy, sendWithClientId],
  );

  /** Sends a message that was refused or lost again, with its own client id (never twice). */
  const resend = useCallback(
    (message: Message) => {
      if (busy || !message.client_id) return;
      void sendWithClientId(message.client_id, message.text);
    },
    [busy, sendWithClientId],
  );

  /**
   * A new alternative of a bot reply; also the retry of a failed one — of any reply the list
   * shows, an old one after a jump too: it is written in its place (docs/chat.md "Long chats").
   */
  const regenerate = useCallback(
    (messageId: string) => {
      if (busy) return;
      void run((handler, signal) => regenerateMessage(chatId, messageId, handler, signal), null, undefined, true);
    },
    [busy, chatId, run],
  );

  /**
   * A group scene: follows a character's reply someone else started (another person's
   * message, a "Continue" turn) unless a stream of this page is open already.
   */
  const follow = useCallback(
    (messageId: string, force = false) => {
      if (stream.current && !force) return;
      void run((handler, signal) => attachStream(chatId, messageId, handler, signal), null);
    },
    [chatId, run],
  );

  /** A group scene: this character answers now (a tap on her face). */
  const speakNow = useCallback(
    (botId: string) => {
      if (busy) return;
      void run((handler, signal) => speak(chatId, botId, handler, signal), null);
    },
    [busy, chatId, run],
  );

  /** A group scene: the characters talk among themselves for up to `turns` turns; the first reply is followed. */
  const continueTurns = useCallback(
    async (turns?: number) => {
      if (busy) return;
      setError(null);
      try {
        const started = await continueScene(chatId, turns);
        void client.invalidateQueries({ queryKey: chatKeys.scene(chatId) });
        if (started.message_id) follow(started.message_id, true);
      } catch (failure) {
        if (failure instanceof ApiRequestError) setError(toConversationError(failure));
      }
    },
    [busy, chatId, client, follow],
  );

  /** Stops the chat's reply being written (any of them: the server has one at a time); true when it did. */
  const stop = useCallback(async () => {
    try {
      await stopGeneration(chatId);
      return true;
    } catch (failure) {
      if (failure instanceof ApiRequestError) setError(toConversationError(failure));
      return false;
    }
  }, [chatId]);

  /** Shows another alternative of a reply ("2/3"). */
  const select = useCallback(
    async (message: Message, index: number) => {
      if (busy || index < 0 || index >= message.alt_count) return;
      try {
        dispatch({ type: 'upsert', message: await selectAlternative(chatId, message.id, index) });
      } catch (failure) {
        if (failure instanceof ApiRequestError) setError(toConversationError(failure));
      }
    },
    [busy, chatId],
  );

  /**
   * A reply still being written when the page opens, or in a page it loads later, is followed
   * to its end: the newest one as the page's own stream, an older one (regenerated or retried
   * after a jump back, the page reloaded meanwhile) in its place. The list knows it only from
   * the history, as last saved: without the stream its typing dots would stay after it ended
   * (docs/chat.md "Long chats"). Each once per window; never while a stream of this page is open.
   */
  const live = streamingMessage(state);
  const liveId = live?.id ?? null;
  const lastBotId = lastBotMessage(state)?.id ?? null;
  useEffect(() => {
    if (!liveId || busy || stream.current || followedLive.current.has(liveId)) return;
    followedLive.current.add(liveId);
    const inPlace = hasNewer || liveId !== lastBotId;
    void run((handler, signal) => attachStream(chatId, liveId, handler, signal), null, undefined, inPlace);
  }, [chatId, liveId, lastBotId, hasNewer, busy, run]);

  const patch = useCallback(
    (messageId: string, changes: Partial<Message>) => dispatch({ type: 'patch', messageId, changes }),
    [],
  );

  /** A message the server answered (an edit, a rewrite) replaces the shown one. */
  const upsert = useCallback((message: Message) => dispatch({ type: 'upsert', message }), []);
  /** Messages that left the history (deleted). */
  const remove = useCallback((ids: string[]) => {
    for (const messageId of ids) dispatch({ type: 'remove', messageId });
  }, []);
  /** A failed call of another action shows in the banner above the composer. */
  const fail = useCallback((failure: unknown) => {
    if (failure instanceof ApiRequestError) setError(toConversationError(failure));
    else throw failure;
  }, []);

  const messages = useMemo(() => listMessages(state), [state]);
  // The reader's last place, when that message is still in the history (else the date's first).
  const focus =
    anchor.kind === 'date' && anchor.focusId && messages.some((m) => m.id === anchor.focusId) ? anchor.focusId : null;
  const streaming = live;

  return {
    messages,
    /** The reply being written, if any. */
    streaming,
    /**
     * The chat's newest reply, which offers regenerate — none while the newest messages are not
     * loaded (after a jump back): the window's last reply is an old one, and a new alternative of
     * it would be written where nothing shows it (docs/chat.md "Long chats").
     */
    lastBotId: hasNewer ? null : lastBotId,
    /** A send or a generation is under way: the composer waits, the stop button shows. */
    busy: busy || Boolean(streaming),
    /** Waiting for the reply to start (no bot message yet). */
    waitingForReply: busy && !streaming,
    /** The streaming reply whose model is still loading (the typing indicator says so). */
    warmingUpId: streaming && streaming.id === warmingUpId ? warmingUpId : null,
    error,
    dismissError: () => setError(null),
    send,
    resend,
    regenerate,
    stop,
    select,
    follow,
    speakNow,
    continueTurns,
    patch,
    upsert,
    remove,
    fail,
    history: {
      isPending: history.isPending,
      isError: history.isError,
      hasOlder: Boolean(history.hasNextPage),
      isLoadingOlder: history.isFetchingNextPage,
      loadOlder: () => {
        if (history.hasNextPage && !history.isFetchingNextPage) void history.fetchNextPage();
      },
      retry: () => void history.refetch(),
      hasNewer,
      /** The messages that arrived since the last jump while the newest ones were not loaded. */
      awayCount: hasNewer ? awayCount : 0,
      isLoadingNewer: history.isFetchingPreviousPage,
      loadNewer: () => {
        if (history.hasPreviousPage && !history.isFetchingPreviousPage) void history.fetchPreviousPage();
      },
      /** The message a jump to a date (or the reader's last place) opens at. */
      anchorId: focus ?? history.data?.pages.find((page) => page.anchor_id)?.anchor_id ?? null,
      /** How far that message's top was scrolled above the view (the reader's last place). */
      anchorOffset: focus && anchor.kind === 'date' ? (anchor.focusOffset ?? 0) : 0,
      anchor,
      windowKey,
      jumpTo,
    },
    /** How many messages this conversation has sent: the list follows each one. */
    sentCount,
  };
}

export type Conversation = ReturnType<typeof useConversation>;
