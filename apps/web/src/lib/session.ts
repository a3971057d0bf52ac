import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '@reverie/shared';
import { storage } from './storage';

/**
 * The session (spec §4): an access token present means authorized. Tokens live in local
 * storage, shared by the browser's tabs. Components read it with `useSession`. Every tab hears
 * the others' new tokens and sign-outs (BroadcastChannel, or storage events where it is
 * missing), so that one tab's refresh serves them all. The profile is not kept here: it is
 * server state, the query of `lib/profile.ts`, dropped when the tokens are cleared.
 */
export interface SessionState {
  accessToken: string | null;
  refreshToken: string | null;
  /** True after the server refused to refresh (the session ended): the user is asked to log in. */
  expired: boolean;
}

/** Why the tokens were cleared: the user logged out, or the session ended on its own. */
export type ClearReason = 'logout' | 'expired';

let state: SessionState = {
  accessToken: storage.get(STORAGE_KEYS.accessToken),
  refreshToken: storage.get(STORAGE_KEYS.refreshToken),
  expired: false,
};
const listeners = new Set<() => void>();

function emit(next: SessionState) {
  state = next;
  listeners.forEach((listener) => listener());
}

export const getSession = () => state;
export const getAccessToken = () => state.accessToken;
export const isAuthorized = () => Boolean(state.accessToken);

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The tokens other tabs stored: after a refresh by another tab they differ from this tab's. */
export function readStoredTokens(): { accessToken: string | null; refreshToken: string | null } {
  return { accessToken: storage.get(STORAGE_KEYS.accessToken), refreshToken: storage.get(STORAGE_KEYS.refreshToken) };
}

/** Stores both tokens, marks that this browser has been authorized once and tells the other tabs. */
export function setTokens(accessToken: string, refreshToken: string): void {
  storage.set(STORAGE_KEYS.accessToken, accessToken);
  storage.set(STORAGE_KEYS.refreshToken, refreshToken);
  storage.set(STORAGE_KEYS.authorizedOnce, '1');
  adoptTokens(accessToken, refreshToken);
  broadcast({ type: 'tokens', access: accessToken, refresh: refreshToken });
}

/** Uses tokens another tab stored (they are already in storage). */
export function adoptTokens(accessToken: string, refreshToken: string): void {
  if (state.accessToken === accessToken && state.refreshToken === refreshToken) return;
  emit({ ...state, accessToken, refreshToken, expired: false });
}

/** Signs out this tab and the others: `expired` when the server refused to refresh. */
export function clearSession(reason: ClearReason = 'logout'): void {
  storage.remove(STORAGE_KEYS.accessToken);
  storage.remove(STORAGE_KEYS.refreshToken);
  emit({ accessToken: null, refreshToken: null, expired: reason === 'expired' });
  broadcast({ type: 'cleared', reason });
}

/** The expired notice was shown: it is not shown again. */
export function acknowledgeExpired(): void {
  if (state.expired) emit({ ...state, expired: false });
}

type TabMessage = { type: 'tokens'; access: string; refresh: string } | { type: 'cleared'; reason: ClearReason };

/** The channel between this browser's tabs; null where BroadcastChannel is missing. */
const TAB_CHANNEL = 'reverie-session';
const channel: BroadcastChannel | null = (() => {
  try {
    return typeof BroadcastChannel === 'function' ? new BroadcastChannel(TAB_CHANNEL) : null;
  } catch {
    return null;
  }
})();

function broadcast(message: TabMessage): void {
  try {
    channel?.postMessage(message);
  } catch {
    // A closed channel: the other tabs still see storage events.
  }
}

/** Applies what another tab did (never broadcast again). */
function receive(message: TabMessage): void {
  if (message.type === 'tokens') {
    if (typeof message.access === 'string' && typeof message.refresh === 'string')
      adoptTokens(message.access, message.refresh);
  } else if (message.type === 'cleared' && state.accessToken) {
    emit({ accessToken: null, refreshToken: null, expired: message.reason === 'expired' });
  }
}

if (channel) {
  // Node's BroadcastChannel (tests, server rendering) must not keep the process alive.
  (channel as BroadcastChannel & { unref?: () => void }).unref?.();
  channel.onmessage = (event: MessageEvent<TabMessage>) => {
    if (event.data && typeof event.data === 'object') receive(event.data);
  };
} else if (typeof window !== 'undefined') {
  // Without BroadcastChannel: storage events, which other tabs' writes fire here.
  window.addEventListener('storage', (event) => {
    if (event.key !== STORAGE_KEYS.accessToken && event.key !== STORAGE_KEYS.refreshToken && event.key !== null) return;
    const stored = readStoredTokens();
    if (stored.accessToken && stored.refreshToken) adoptTokens(stored.accessToken, stored.refreshToken);
    else if (!stored.accessToken && !stored.refreshToken && state.accessToken)
      receive({ type: 'cleared', reason: 'logout' });
  });
}

export const wasAuthorizedOnce = () => storage.get(STORAGE_KEYS.authorizedOnce) === '1';

/** The session, re-rendering on every change (the profile: `useProfile`, lib/profile.ts). */
export function useSession(): SessionState & { isAuthorized: boolean } {
  const snapshot = useSyncExternalStore(subscribeSession, getSession, getSession);
  return { ...snapshot, isAuthorized: Boolean(snapshot.accessToken) };
}
