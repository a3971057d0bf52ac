import type { Chat, History } from '@reverie/shared';
import { openingAnchor } from '../scroll-memory';
import { getChat } from './get-chat';
import { getHistory, type HistoryAnchor } from './get-history';

/**
 * A chat's first requests, started by the route's loader while the chat page's code is still
 * loading (docs/chat.md "Long chats"): the chat and the history page it opens at go out at
 * once, in parallel with the code and the profile, instead of one after another behind them.
 * Each answer is taken once, by the query that would have asked for it, and only soon after.
 */
const early = new Map<string, { at: number; answer: Promise<unknown> }>();

/** An answer is used this long after its request started; later, the query asks again. */
const FRESH_MS = 10_000;

const chatKey = (chatId: string) => `chat:${chatId}`;
const historyKey = (chatId: string, anchor: HistoryAnchor) => `history:${chatId}:${JSON.stringify(anchor)}`;

function start(key: string, ask: () => Promise<unknown>): void {
  const answer = ask();
  // A failure is the query's to show, when it takes the answer; none is reported here.
  answer.catch(() => {});
  early.set(key, { at: Date.now(), answer });
}

function take<T>(key: string): Promise<T> | null {
  const entry = early.get(key);
  early.delete(key);
  return entry && Date.now() - entry.at < FRESH_MS ? (entry.answer as Promise<T>) : null;
}

/** Starts the requests of `/{slug}?chat=<id>`: the chat and the history page it opens at. */
export function startChatOpening(chatId: string): void {
  start(chatKey(chatId), () => getChat(chatId));
  const anchor = openingAnchor(chatId);
  start(historyKey(chatId, anchor), () => getHistory(chatId, { anchor }));
}

/** The chat's answer started by the loader, once; null when none was started (or it is old). */
export const takeEarlyChat = (chatId: string) => take<Chat>(chatKey(chatId));

/** The history page at `anchor` started by the loader, once; null when none was. */
export const takeEarlyHistory = (chatId: string, anchor: HistoryAnchor) => take<History>(historyKey(chatId, anchor));

/** Forgets the answers not taken (tests). */
export const forgetEarlyAnswers = () => early.clear();
