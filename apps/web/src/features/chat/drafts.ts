/**
 * The composer's unsent drafts, in this tab's sessionStorage: one per chat
 * (`chat-draft:<chatId>`). A guest's draft, or one for a chat not created yet, is kept under
 * the character's slug (`chat-draft:<slug>`) and moves to the chat the first time one of that
 * character's chats opens without a draft of its own — so are the drafts written before drafts
 * were per chat (they were per character). Deleting a chat drops its draft.
 */

/** The draft of one chat. */
export const chatDraftKey = (chatId: string) => `chat-draft:${chatId}`;

/** The draft of a character whose chat does not exist (yet): a guest's, or before the chat is made. */
export const characterDraftKey = (slug: string) => `chat-draft:${slug}`;

function session(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** The draft under `key`, or '' (none, or storage unavailable). */
export function readDraft(key: string): string {
  try {
    return session()?.getItem(key) ?? '';
  } catch {
    return '';
  }
}

/** Keeps `text` under `key`; an empty text removes the draft. */
export function writeDraft(key: string, text: string): void {
  try {
    const storage = session();
    if (!storage) return;
    if (text) storage.setItem(key, text);
    else storage.removeItem(key);
  } catch {
    // Storage unavailable (private mode, quota): the draft just is not kept.
  }
}

/**
 * The draft to show under `key`. When there is none and `fallbackKey` (the character's) holds
 * one, that one moves to `key` — once: it is removed from the fallback.
 */
export function openDraft(key: string, fallbackKey?: string): string {
  const own = readDraft(key);
  if (own || !fallbackKey || fallbackKey === key) return own;
  const moved = readDraft(fallbackKey);
  if (!moved) return '';
  writeDraft(key, moved);
  writeDraft(fallbackKey, '');
  return moved;
}

/** A deleted chat's draft goes with it. */
export function dropChatDraft(chatId: string): void {
  writeDraft(chatDraftKey(chatId), '');
}
