import { STORAGE_KEYS, UNAUTHORIZED_RETRY_DELAY_MS } from '@reverie/shared';
import { analytics } from '../../lib/analytics';
import { ApiRequestError, setUnauthorizedHandler } from '../../lib/api-client';
import { currentLocale } from '../../lib/i18n';
import { storage } from '../../lib/storage';
import { getProfile } from './api/get-profile';
import { login } from './api/login';
import { register } from './api/register';
import { refreshTokenPair, revokeRefreshToken } from './api/tokens';
import { resendActivation } from './api/verification';
import { clearSession, getSession, setProfile, setTokens } from './session';

const ONBOARDING_KEY = 'onboarding_pending';
const verificationKey = (userId: string) => `verification_requested_${userId}`;

let refreshing: Promise<boolean> | null = null;

/** Rotates the tokens; one request at a time. False when the refresh token is refused. */
export function refreshAccessToken(): Promise<boolean> {
  const refresh = getSession().refreshToken;
  if (!refresh) return Promise.resolve(false);
  refreshing ??= refreshTokenPair(refresh)
    .then((pair) => {
      setTokens(pair.access, pair.refresh);
      return true;
    })
    .catch(() => false)
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

/** Any signed-in request that meets a 401 refreshes once; a refused refresh signs out. */
setUnauthorizedHandler(async () => {
  const ok = await refreshAccessToken();
  if (!ok) clearSession();
  return ok;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How often a profile load that got no answer at all (offline, aborted) is tried again. */
const NETWORK_RETRIES = 3;
const NETWORK_RETRY_DELAY_MS = 2000;

/**
 * Loads the profile for the current token (spec §4): a 401 waits 1 s and refreshes (the new
 * token loads the profile again); a failed refresh or any other answer of failure clears the
 * tokens. A request that got no answer at all (status 0: offline, or aborted because the page
 * is being left) is not a refusal: it is tried again a few times and never signs the user out.
 */
export async function loadProfile(attempt = 0): Promise<void> {
  const token = getSession().accessToken;
  if (!token) return;
  try {
    const profile = await getProfile();
    if (getSession().accessToken !== token) return;
    setProfile(profile);
  } catch (error) {
    if (getSession().accessToken !== token) return;
    if (error instanceof ApiRequestError && error.status === 401) {
      await sleep(UNAUTHORIZED_RETRY_DELAY_MS);
      if (getSession().accessToken !== token) return;
      if (!(await refreshAccessToken())) clearSession();
      return;
    }
    if (error instanceof ApiRequestError && error.status === 0) {
      if (attempt >= NETWORK_RETRIES) return;
      await sleep(NETWORK_RETRY_DELAY_MS);
      if (getSession().accessToken === token) await loadProfile(attempt + 1);
      return;
    }
    clearSession();
  }
}

/** Logs in and stores the tokens (the bootstrap then loads the profile and identifies). */
export async function loginWithPassword(email: string, password: string): Promise<void> {
  const pair = await login({ email, password });
  setTokens(pair.access, pair.refresh);
}

/**
 * Signs up, then logs in automatically. Returns where to go next: the onboarding after a
 * first sign-up, or the login modal when the automatic login failed. Registration errors throw.
 */
export async function signUp(body: { username: string; email: string; password: string }): Promise<string> {
  await register({ ...body, age_confirmed: true, locale: currentLocale() });
  storage.set(STORAGE_KEYS.ageConfirmed, '1');
  try {
    await loginWithPassword(body.email, body.password);
  } catch {
    return '/?login=1';
  }
  storage.set(ONBOARDING_KEY, '1');
  return '/welcome';
}

export const finishOnboarding = () => storage.remove(ONBOARDING_KEY);

/** Log-out: revokes the refresh token, clears tokens, profile and claim data. */
export async function logout(): Promise<void> {
  const refresh = getSession().refreshToken;
  clearSession();
  analytics().reset();
  if (refresh) await revokeRefreshToken(refresh).catch(() => undefined);
}

/**
 * Asks for the verification mail only when the e-mail is unconfirmed and none was requested
 * before, unless forced (the resend button).
 */
export async function requestVerification(force = false): Promise<{ sent: boolean } | null> {
  const profile = getSession().profile;
  if (!profile || profile.is_email_confirmed) return null;
  if (!force && storage.get(verificationKey(profile.id))) return null;
  const result = await resendActivation(force);
  storage.set(verificationKey(profile.id), '1');
  return result;
}
