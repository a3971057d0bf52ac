import { characterDraftKey, chatDraftKey } from './drafts';

/**
 * A guest's message to a character, kept while they sign up or log in (spec: the visitor's
 * first message survives sign-up). It lives in this tab's sessionStorage under the
 * character's slug, so it survives the modal and a reload of the page, and is bound to
 * that character; the member chat takes it (read and removed in one step) and sends it
 * once, with the client id chosen here, so a repeat of the request is not a second message.
 */
export interface PendingMessage {
  text: string;
  clientId: string;
  /** When it was kept (ms): a message older than `PENDING_MESSAGE_TTL_MS` is dropped. */
  at: number;
}

/** A message kept longer than this (the visitor went away) is not sent any more. */
export const PENDING_MESSAGE_TTL_MS = 60 * 60 * 1000;

const keyOf = (slug: string) => `chat-pending:${slug}`;

function session(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

const newId = () =>
  typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `${Date.now().toString(16)}-${Math.random().toString(16).slice(2)}`;

/** Keeps the guest's message for this character (the newest one replaces an older one). */
export function keepPendingMessage(slug: string, text: string, now = Date.now()): void {
  const trimmed = text.trim();
  if (!trimmed) return;
  const pending: PendingMessage = { text: trimmed, clientId: newId(), at: now };
  try {
    session()?.setItem(keyOf(slug), JSON.stringify(pending));
  } catch {
    // Storage unavailable (private mode, quota): the text stays in the field only.
  }
}

function parse(raw: string | null, now: number): PendingMessage | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<PendingMessage>;
    if (typeof value.text !== 'string' || !value.text.trim() || typeof value.clientId !== 'string') return null;
    if (typeof value.at !== 'number' || now - value.at > PENDING_MESSAGE_TTL_MS || value.at > now + 60_000) return null;
    return { text: value.text, clientId: value.clientId, at: value.at };
  } catch {
    return null;
  }
}

/** The message kept for this character, without taking it. */
export function peekPendingMessage(slug: string, now = Date.now()): PendingMessage | null {
  return parse(session()?.getItem(keyOf(slug)) ?? null, now);
}

/**
 * Takes the message kept for this character: it is removed at once, so it is sent once. The
 * composer's draft goes too when it is that same text (it is being sent): the character's, and
 * the chat's (`chatId`) where the character's draft has already moved to the open chat.
 */
export function takePendingMessage(slug: string, chatId?: string, now = Date.now()): PendingMessage | null {
  const storage = session();
  if (!storage) return null;
  const raw = storage.getItem(keyOf(slug));
  if (raw === null) return null;
  storage.removeItem(keyOf(slug));
  const pending = parse(raw, now);
  if (pending) {
    for (const key of chatId ? [characterDraftKey(slug), chatDraftKey(chatId)] : [characterDraftKey(slug)])
      if (storage.getItem(key)?.trim() === pending.text) storage.removeItem(key);
  }
  return pending;
}
