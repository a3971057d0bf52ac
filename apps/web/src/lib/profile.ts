import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { Profile } from '@reverie/shared';
import { request } from './api-client';
import { profileKeys } from './query-keys';
import { getSession, subscribeSession, useSession } from './session';

/**
 * The signed-in user's profile (balance, premium, e-mail state…) as server state: one query,
 * `profileKeys.me()`. The auth bootstrap (`features/auth`) fetches it for the session's token
 * and again after each new token; mutations that answer a new balance write it with
 * `setProfileData` (or fetch it again with `refetchProfile`); `bindProfileToSession` drops it
 * the moment the tokens are cleared, in this tab or another (log-out, ended session). There is
 * no other copy: every component reads it with `useProfile`.
 */
export interface ProfileState {
  profile: Profile | null;
  isPremium: boolean;
}

/** GET /api/profile (a 401 refreshes the token once, as every signed-in request). */
export const fetchProfile = () => request<Profile>('/api/profile');

/** The profile of the signed-in user, null for a guest or while it loads. */
export function useProfile(): ProfileState {
  const { accessToken } = useSession();
  // Only reads: the bootstrap loads it (its own observer, its own query function).
  const { data } = useQuery({ queryKey: profileKeys.me(), queryFn: fetchProfile, enabled: false });
  const profile = accessToken ? (data ?? null) : null;
  return { profile, isPremium: Boolean(profile?.has_subscription) };
}

/** The loaded profile outside React (null when none is loaded or no one is signed in). */
export function readProfile(client: QueryClient): Profile | null {
  if (!getSession().accessToken) return null;
  return client.getQueryData<Profile>(profileKeys.me()) ?? null;
}

/** Writes a mutation's answer (a new balance, a confirmed e-mail, saved settings) into the profile. */
export function setProfileData(client: QueryClient, change: Profile | ((profile: Profile) => Profile)): void {
  client.setQueryData<Profile>(profileKeys.me(), (current) => {
    if (typeof change !== 'function') return change;
    return current ? change(current) : current;
  });
}

/** GET /api/profile into the query (after a purchase or a subscription change); null on failure. */
export async function refetchProfile(client: QueryClient): Promise<Profile | null> {
  if (!getSession().accessToken) return null;
  try {
    return await client.fetchQuery({
      queryKey: profileKeys.me(),
      queryFn: fetchProfile,
      staleTime: 0,
    });
  } catch {
    return null;
  }
}

/**
 * Drops the profile (and the rest of the account's data under `profileKeys.all`) as soon as
 * the session loses its tokens: log-out here, log-out or an ended session in another tab.
 * Returns the unsubscribe.
 */
export function bindProfileToSession(client: QueryClient): () => void {
  let signedIn = Boolean(getSession().accessToken);
  const drop = () => client.removeQueries({ queryKey: profileKeys.all });
  if (!signedIn) drop();
  return subscribeSession(() => {
    const now = Boolean(getSession().accessToken);
    if (signedIn && !now) drop();
    signedIn = now;
  });
}
