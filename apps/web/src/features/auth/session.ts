import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS, type Profile } from '@reverie/shared';
import { storage } from '../../lib/storage';

/**
 * The session (spec §4): an access token present means authorized. Tokens live in local
 * storage; the profile in memory. Components read it with `useSession`.
 */
export interface SessionState {
  accessToken: string | null;
  refreshToken: string | null;
  profile: Profile | null;
}

let state: SessionState = {
  accessToken: storage.get(STORAGE_KEYS.accessToken),
  refreshToken: storage.get(STORAGE_KEYS.refreshToken),
  profile: null,
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

/** Stores both tokens and marks that this browser has been authorized once. */
export function setTokens(accessToken: string, refreshToken: string): void {
  storage.set(STORAGE_KEYS.accessToken, accessToken);
  storage.set(STORAGE_KEYS.refreshToken, refreshToken);
  storage.set(STORAGE_KEYS.authorizedOnce, '1');
  emit({ ...state, accessToken, refreshToken });
}

export function setProfile(profile: Profile | null): void {
  emit({ ...state, profile });
}

/** Changes the loaded profile in place (balance, name…) without a round trip. */
export function updateProfile(change: (profile: Profile) => Profile): void {
  if (state.profile) emit({ ...state, profile: change(state.profile) });
}

export function clearSession(): void {
  storage.remove(STORAGE_KEYS.accessToken);
  storage.remove(STORAGE_KEYS.refreshToken);
  emit({ accessToken: null, refreshToken: null, profile: null });
}

export const wasAuthorizedOnce = () => storage.get(STORAGE_KEYS.authorizedOnce) === '1';

/** The session, re-rendering on every change. */
export function useSession(): SessionState & { isAuthorized: boolean; isPremium: boolean } {
  const snapshot = useSyncExternalStore(subscribeSession, getSession, getSession);
  return {
    ...snapshot,
    isAuthorized: Boolean(snapshot.accessToken),
    isPremium: Boolean(snapshot.profile?.has_subscription),
  };
}
