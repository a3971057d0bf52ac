import { useEffect, useRef } from 'react';
import { PROFILE_REFRESH_MS } from '@reverie/shared';
import { analytics } from '../../../lib/analytics';
import { loadProfile, refreshAccessToken } from '../auth-flow';
import { clearSession, useSession } from '../session';

/**
 * The session's life (spec §4), mounted once in the app layout: a token loads the profile;
 * the access token is refreshed 10 minutes after a profile id appears (and after each
 * refresh); analytics identify the user on log-in and reset when the token is cleared.
 */
export function useAuthBootstrap(): void {
  const { accessToken, profile } = useSession();
  const identified = useRef<string | null>(null);
  const hadToken = useRef(Boolean(accessToken));

  useEffect(() => {
    if (accessToken) {
      hadToken.current = true;
      void loadProfile();
    } else if (hadToken.current) {
      hadToken.current = false;
      identified.current = null;
      analytics().reset();
    }
  }, [accessToken]);

  useEffect(() => {
    if (profile && identified.current !== profile.id) {
      identified.current = profile.id;
      analytics().identify(profile.id);
    }
  }, [profile]);

  const profileId = profile?.id;
  useEffect(() => {
    if (!profileId) return;
    const timer = setTimeout(() => {
      void refreshAccessToken().then((ok) => ok || clearSession());
    }, PROFILE_REFRESH_MS);
    return () => clearTimeout(timer);
  }, [profileId, accessToken]);
}
