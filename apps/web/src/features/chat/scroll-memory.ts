import type { HistoryAnchor } from './api/get-history';

/**
 * Where the reader left a chat (docs/chat.md "Long chats"): the first message in view while
 * they were reading further up (not a row rendered above the view), and how far it was
 * scrolled, kept for the tab's session. Back at the newest message, nothing is kept and the
 * chat opens there.
 */
export interface ScrollPlace {
  id: string;
  /** The message's `created_at`: the chat reopens with the page around it. */
  at: string;
  /** How far the message's top was above the top of the view, in px. */
  offset?: number;
}

const key = (chatId: string) => `reverie.chat-place.${chatId}`;

export function rememberPlace(chatId: string, place: ScrollPlace | null): void {
  try {
    if (place) window.sessionStorage.setItem(key(chatId), JSON.stringify(place));
    else window.sessionStorage.removeItem(key(chatId));
  } catch {
    // Storage full or refused: the chat opens at its newest message next time.
  }
}

/** The anchor a chat opens at: where the reader left it, or its newest message. */
export function openingAnchor(chatId: string): HistoryAnchor {
  try {
    const raw = window.sessionStorage.getItem(key(chatId));
    if (raw) {
      const place = JSON.parse(raw) as Partial<ScrollPlace>;
      if (typeof place.id === 'string' && typeof place.at === 'string' && !Number.isNaN(Date.parse(place.at))) {
        const offset = typeof place.offset === 'number' && Number.isFinite(place.offset) ? place.offset : 0;
        return { kind: 'date', at: place.at, focusId: place.id, focusOffset: offset };
      }
    }
  } catch {
    // Unreadable: start at the newest message.
  }
  return { kind: 'latest' };
}
