import type { Message } from '@reverie/shared';

/**
 * The messages of one open chat, oldest first. Every message the server sends replaces the
 * client's copy by id; a bot reply that is another alternative of a shown one (same
 * `reply_to`) takes its place; a user message the server confirmed replaces the local copy
 * with the same `client_id`.
 */
export interface MessageListState {
  order: string[];
  byId: Record<string, Message>;
}

export type MessageListAction =
  /** A message from the server (stream event or call answer), or a local one. */
  | { type: 'upsert'; message: Message }
  /** A message that takes the place of a shown one (by id, or as another alternative), else nothing. */
  | { type: 'replace'; message: Message }
  /** More text of a streaming reply. */
  | { type: 'delta'; messageId: string; text: string }
  /** An older history page, newest first as the API sends it. */
  | { type: 'prepend'; messages: Message[] }
  /** A newer history page (going forward from a jump), newest first as the API sends it. */
  | { type: 'append'; messages: Message[] }
  /** Fields the client sets itself (a reply it gave up on, an unblurred picture). */
  | { type: 'patch'; messageId: string; changes: Partial<Message> }
  | { type: 'remove'; messageId: string }
  | { type: 'reset' };

export const emptyMessageList: MessageListState = { order: [], byId: {} };

/** The id of the shown message that `message` stands for, if any. */
function slotOf(state: MessageListState, message: Message): string | null {
  if (state.byId[message.id]) return message.id;
  if (message.client_id) {
    const local = state.order.find((id) => state.byId[id]?.client_id === message.client_id);
    if (local) return local;
  }
  if (message.role === 'bot' && message.reply_to) {
    const sibling = state.order.find((id) => {
      const shown = state.byId[id];
      return shown?.role === 'bot' && shown.reply_to === message.reply_to;
    });
    if (sibling) return sibling;
  }
  return null;
}

function withoutKey(byId: Record<string, Message>, key: string): Record<string, Message> {
  const next = { ...byId };
  delete next[key];
  return next;
}

/**
 * A history page (newest first, as the API sends it) put before or after the shown messages,
 * without those already shown (by id, client id or as another alternative of the same reply,
 * as `slotOf` finds them). The shown messages' client ids and replies are gathered once, so a
 * page costs one pass over a long chat rather than one per message of the page. Going back
 * (`before`), a message of the page also hides a later one of the same slot; going forward,
 * as before, only the shown ones do.
 */
function mergePage(state: MessageListState, page: Message[], where: 'before' | 'after'): MessageListState {
  const byId = { ...state.byId };
  const clientIds = new Set<string>();
  const replies = new Set<string>();
  const note = (message: Message) => {
    if (message.client_id) clientIds.add(message.client_id);
    if (message.role === 'bot' && message.reply_to) replies.add(message.reply_to);
  };
  for (const id of state.order) {
    const shown = state.byId[id];
    if (shown) note(shown);
  }
  const added: string[] = [];
  for (let i = page.length - 1; i >= 0; i -= 1) {
    const message = page[i]!;
    if (byId[message.id]) continue;
    if (message.client_id && clientIds.has(message.client_id)) continue;
    if (message.role === 'bot' && message.reply_to && replies.has(message.reply_to)) continue;
    byId[message.id] = message;
    added.push(message.id);
    if (where === 'before') note(message);
  }
  if (!added.length) return state;
  return { order: where === 'before' ? [...added, ...state.order] : [...state.order, ...added], byId };
}

export function messageListReducer(state: MessageListState, action: MessageListAction): MessageListState {
  switch (action.type) {
    case 'upsert': {
      const { message } = action;
      const slot = slotOf(state, message);
      if (!slot) return { order: [...state.order, message.id], byId: { ...state.byId, [message.id]: message } };
      if (slot === message.id) return { ...state, byId: { ...state.byId, [message.id]: message } };
      return {
        order: state.order.map((id) => (id === slot ? message.id : id)),
        byId: { ...withoutKey(state.byId, slot), [message.id]: message },
      };
    }
    case 'replace':
      return slotOf(state, action.message)
        ? messageListReducer(state, { type: 'upsert', message: action.message })
        : state;
    case 'delta': {
      const current = state.byId[action.messageId];
      if (!current || !action.text) return state;
      return { ...state, byId: { ...state.byId, [current.id]: { ...current, text: current.text + action.text } } };
    }
    case 'prepend':
      return mergePage(state, action.messages, 'before');
    case 'append':
      return mergePage(state, action.messages, 'after');
    case 'patch': {
      const current = state.byId[action.messageId];
      if (!current) return state;
      return { ...state, byId: { ...state.byId, [current.id]: { ...current, ...action.changes } } };
    }
    case 'remove':
      if (!state.byId[action.messageId]) return state;
      return {
        order: state.order.filter((id) => id !== action.messageId),
        byId: withoutKey(state.byId, action.messageId),
      };
    case 'reset':
      return emptyMessageList;
  }
}

/** The messages in display order. */
export const listMessages = (state: MessageListState): Message[] =>
  state.order.map((id) => state.byId[id]).filter((m): m is Message => Boolean(m));

/** The bot reply being written right now, if any. */
export function streamingMessage(state: MessageListState): Message | null {
  for (let i = state.order.length - 1; i >= 0; i -= 1) {
    const message = state.byId[state.order[i]!];
    if (message?.role === 'bot' && message.state === 'streaming') return message;
  }
  return null;
}

/** The newest bot message (the one that offers regenerate). */
export function lastBotMessage(state: MessageListState): Message | null {
  for (let i = state.order.length - 1; i >= 0; i -= 1) {
    const message = state.byId[state.order[i]!];
    if (message?.role === 'bot') return message;
  }
  return null;
}
