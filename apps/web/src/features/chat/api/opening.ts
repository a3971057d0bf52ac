import type { BotDetail, Chat, History } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { earlyBotKey, startEarly, takeEarly } from '../../../lib/early-answers';
import { currentLocale } from '../../../lib/i18n';
import { whenIdle } from '../../../lib/idle';
import { warmMessageTimes } from '../../../lib/message-time';
import { openingAnchor } from '../scroll-memory';
import { getChat } from './get-chat';
import { getHistory, type HistoryAnchor } from './get-history';

/**
 * A chat's first requests, started by the route's loader while the chat page's code is still
 * loading (docs/chat.md "Long chats"): the chat, the history page it opens at and the
 * character's page data go out at once, in parallel with the code and the profile, instead of
 * one after another behind them. Each answer is taken once, by the query that would have asked
 * for it, and only soon after (`lib/early-answers.ts`).
 */
const chatKey = (chatId: string) => `chat:${chatId}`;
const historyKey = (chatId: string, anchor: HistoryAnchor) => `history:${chatId}:${JSON.stringify(anchor)}`;

/**
 * Starts the requests of `/{slug}?chat=<id>`: the chat, the history page it opens at and the
 * character (`useBot` takes that answer; the same request as its `getBot`).
 */
export function startChatOpening(chatId: string, slug?: string): void {
  startEarly(chatKey(chatId), () => getChat(chatId));
  const anchor = openingAnchor(chatId);
  startEarly(historyKey(chatId, anchor), () => getHistory(chatId, { anchor }));
  if (slug) startEarly(earlyBotKey(slug), () => request<BotDetail>(`/api/bot/${encodeURIComponent(slug)}`));
  // While they are on the network, the message times' formatters are made (the first render
  // would pay for them): when the main thread is idle, else soon; a second time costs nothing.
  whenIdle(() => warmMessageTimes(currentLocale()), 300, 0);
}

/** The chat's answer started by the loader, once; null when none was started (or it is old). */
export const takeEarlyChat = (chatId: string) => takeEarly<Chat>(chatKey(chatId));

/** The history page at `anchor` started by the loader, once; null when none was. */
export const takeEarlyHistory = (chatId: string, anchor: HistoryAnchor) =>
  takeEarly<History>(historyKey(chatId, anchor));

/** Forgets the answers not taken (tests). */
export { forgetEarlyAnswers } from '../../../lib/early-answers';
