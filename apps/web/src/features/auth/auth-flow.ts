import { STORAGE_KEYS, UNAUTHORIZED_RETRY_DELAY_MS, type Profile } from '@reverie/shared';
import { analytics } from '../../lib/analytics';
import { ApiRequestError, setUnauthorizedHandler, toApiRequestError } from '../../lib/api-client';
import { currentLocale } from '../../lib/i18n';
import { storage } from '../../lib/storage';
import { getProfile } from './api/get-profile';
import { login } from './api/login';
import { register } from './api/register';
import { refreshTokenPair, revokeRefreshToken } from './api/tokens';
import { resendActivation } from './api/verification';
import { adoptTokens, clearSession, getSession, readStoredTokens, setTokens } from '../../lib/session';

const ONBOARDING_KEY = 'onboarding_pending';
const verificationKey = (userId: string) => `verification_requested_${userId}`;

let refreshing: Promise<boolean> | null = null;

/** The Web Lock that lets one tab of the browser refresh at a time. */
const REFRESH_LOCK = 'reverie-token-refresh';

/**
 * Runs `task` while holding the browser-wide refresh lock (Web Locks API). Where the API is
 * missing the task runs at once: the server's grace window (REFRESH_GRACE_S) then answers
 * tabs that refresh together with the same pair, so none of them is signed out.
 */
function withRefreshLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks || typeof locks.request !== 'function') return task();
  return locks.request(REFRESH_LOCK, { mode: 'exclusive' }, task) as Promise<T>;
}

/** Statuses by which the server refuses the refresh token: the session has ended. */
const REFUSED = new Set([400, 401, 403]);

/**
 * Rotates the tokens: one refresh per tab at a time (single flight) and, through the lock,
 * one per browser. Once it holds the lock the tab reads storage again: when another tab has
 * rotated meanwhile it takes that pair instead of presenting its used refresh token. True
 * with new tokens. When the server refuses, the session has ended: every tab is signed out
 * and asked to log in again; when it cannot be reached (offline, 5xx, 429) the tokens stay
 * for a later try.
 */
export function refreshAccessToken(): Promise<boolean> {
  const mine = getSession().refreshToken;
  if (!mine) return Promise.resolve(false);
  refreshing ??= withRefreshLock(async () => {
    const stored = readStoredTokens();
    if (!stored.refreshToken) {
      // Another tab signed out meanwhile.
      clearSession();
      return false;
    }
    if (stored.refreshToken !== mine && stored.accessToken) {
      adoptTokens(stored.accessToken, stored.refreshToken);
      return true;
    }
    try {
      const pair = await refreshTokenPair(stored.refreshToken);
      const now = readStoredTokens();
      if (now.refreshToken !== stored.refreshToken) {
        // Signed out (or in again) meanwhile, in this tab or another: keeping the new pair
        // would sign every tab back in. The log-out revoked the family, the pair is dead too.
        if (now.refreshToken && now.accessToken) {
          adoptTokens(now.accessToken, now.refreshToken);
          return true;
        }
        if (getSession().refreshToken) clearSession();
        return false;
      }
      setTokens(pair.access, pair.refresh);
      return true;
    } catch (error) {
      if (REFUSED.has(toApiRequestError(error).status)) endExpiredSession();
      return false;
    }
  })
    .catch(() => false)
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

/** The server refused to refresh: the session ended. Every tab asks the user to log in again. */
export function endExpiredSession(): void {
  clearSession('expired');
}

/** Any signed-in request that meets a 401 refreshes once (a refused refresh signs out). */
setUnauthorizedHandler(refreshAccessToken);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How often a profile load that got no answer at all (offline, aborted) is tried again. */
const NETWORK_RETRIES = 3;
const NETWORK_RETRY_DELAY_MS = 2000;

/**
 * Loads the profile for the current token (spec §4) — the query function of the profile query
 * (`lib/profile.ts`), which the bootstrap runs: a 401 waits 1 s and refreshes (the new token
 * loads the profile again); a refused refresh ends the session (the login modal opens), a
 * refresh that reached no server is tried again a few times; any other answer of failure
 * clears the tokens. A request that got no answer at all (status 0: offline, or aborted
 * because the page is being left) is not a refusal: it is tried again a few times and never
 * signs the user out. Null when no profile came for this token (it changed or was cleared
 * meanwhile, or the tries ran out).
 */
export async function loadProfile(attempt = 0): Promise<Profile | null> {
  const token = getSession().accessToken;
  if (!token) return null;
  try {
    const profile = await getProfile();
    return getSession().accessToken === token ? profile : null;
  } catch (error) {
    if (getSession().accessToken !== token) return null;
    if (error instanceof ApiRequestError && error.status === 401) {
      await sleep(UNAUTHORIZED_RETRY_DELAY_MS);
      if (getSession().accessToken !== token) return null;
      const refreshed = await refreshAccessToken();
      if (refreshed || attempt >= NETWORK_RETRIES || getSession().accessToken !== token) return null;
      await sleep(NETWORK_RETRY_DELAY_MS);
      return getSession().accessToken === token ? loadProfile(attempt + 1) : null;
    }
    if (error instanceof ApiRequestError && error.status === 0) {
      if (attempt >= NETWORK_RETRIES) return null;
      await sleep(NETWORK_RETRY_DELAY_MS);
      return getSession().accessToken === token ? loadProfile(attempt + 1) : null;
    }
    clearSession();
    return null;
  }
}

/** Logs in and stores the tokens (the bootstrap then loads the profile and identifies). */
export async function loginWithPassword(email: string, password: string): Promise<void> {
  const pair = await login({ email, password });
  setTokens(pair.access, pair.refresh);
}

/**
 * Signs up, then logs in automatically. Returns where to go next: `next` (the page the
 * visitor signed up from, already checked to be a path of this site) when given, else the
 * onboarding after a first sign-up; the log-in modal (keeping `next`) when the automatic
 * log-in failed. Registration errors throw.
 */
export async function signUp(
  body: { username: string; email: string; password: string },
  next: string | null = null,
): Promise<string> {
  await register({ ...body, age_confirmed: true, locale: currentLocale() });
  storage.set(STORAGE_KEYS.ageConfirmed, '1');
  try {
    await loginWithPassword(body.email, body.password);
  } catch {
    return next ? `/?login=1&next=${encodeURIComponent(next)}` : '/?login=1';
  }
  if (next) return next;
  storage.set(ONBOARDING_KEY, '1');
  return '/welcome';
}

export const finishOnboarding = () => storage.remove(ONBOARDING_KEY);

/**
 * Log-out: clears the tokens at once (the profile query goes with them, `lib/profile.ts`),
 * then revokes the refresh token while holding the refresh lock, so a refresh under way in any tab has finished first (it
 * finds storage cleared and keeps nothing) and the revocation reaches the server after it.
 */
export async function logout(): Promise<void> {
  const refresh = getSession().refreshToken;
  clearSession();
  analytics().reset();
  if (!refresh) return;
  await withRefreshLock(() => revokeRefreshToken(refresh)).catch(() => undefined);
}

/**
 * Asks for the verification mail only when the e-mail (of `profile`, the signed-in user's) is
 * unconfirmed and none was requested before, unless forced (the resend button).
 */
export async function requestVerification(profile: Profile | null, force = false): Promise<{ sent: boolean } | null> {
  if (!profile || profile.is_email_confirmed) return null;
  if (!force && storage.get(verificationKey(profile.id))) return null;
  const result = await resendActivation(force);
  storage.set(verificationKey(profile.id), '1');
  return result;
}
