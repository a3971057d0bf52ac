import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { PROFILE_REFRESH_MS } from '@reverie/shared';
import { showAlert } from '../../../components/ui/alerts';
import { analytics } from '../../../lib/analytics';
import { loadProfile, refreshAccessToken } from '../auth-flow';
import { acknowledgeExpired, useSession } from '../../../lib/session';

/**
 * The session's life (spec §4), mounted once in the app layout: a token loads the profile;
 * the access token is refreshed 10 minutes after a profile id appears (and after each
 * refresh); analytics identify the user on log-in and reset when the token is cleared. When
 * the session ends on its own (the server refused to refresh, in this tab or another) the
 * user is told so and the login modal opens, coming back to the same page afterwards —
 * never a page waiting forever for a profile.
 */
export function useAuthBootstrap(): void {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const { accessToken, profile, expired } = useSession();
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

  const here = location.pathname + location.search;
  useEffect(() => {
    if (!expired) return;
    acknowledgeExpired();
    showAlert(t('auth.session_expired'), { type: 'warning' });
    const next = new URLSearchParams(here.split('?')[1] ?? '').get('login') === '1' ? '/' : here;
    navigate(`/?login=1&next=${encodeURIComponent(next)}`, { replace: true });
  }, [expired, here, navigate, t]);

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
      void refreshAccessToken();
    }, PROFILE_REFRESH_MS);
    return () => clearTimeout(timer);
  }, [profileId, accessToken]);
}
