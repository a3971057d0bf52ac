import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n';
import { useLocation, useNavigate } from 'react-router';
import { PROFILE_REFRESH_MS, type Profile } from '@reverie/shared';
import { showAlert } from '../../../components/ui/alerts';
import { analytics } from '../../../lib/analytics';
import { loadProfile, refreshAccessToken } from '../auth-flow';
import { useProfile } from '../../../lib/profile';
import { profileKeys } from '../../../lib/query-keys';
import { acknowledgeExpired, getSession, useSession } from '../../../lib/session';

/** The profile asked for at the app's start (`startProfileLoad`), for the token of that moment. */
let early: { token: string; answer: Promise<Profile> } | null = null;

/**
 * Asks for the profile as the app starts (main.tsx), before the layout mounts and its query
 * would: a signed-in page (a chat) waits for the profile, and the request then runs while the
 * page's code loads. The bootstrap's query takes that answer once, for the same token.
 */
export function startProfileLoad(): void {
  const token = getSession().accessToken;
  if (!token) return;
  const answer = loadedProfile();
  answer.catch(() => {});
  early = { token, answer };
}

/** The profile query's function: a profile, or a failure that keeps what was loaded. */
async function profileForSession(): Promise<Profile> {
  const taken = early;
  early = null;
  if (taken && taken.token === getSession().accessToken) return taken.answer;
  return loadedProfile();
}

async function loadedProfile(): Promise<Profile> {
  const profile = await loadProfile();
  if (!profile) throw new Error('No profile for this token');
  return profile;
}

/**
 * The session's life (spec §4), mounted once in the app layout: a token loads the profile
 * (the one profile query, `lib/profile.ts`; each new token of the session loads it again, the
 * loaded one staying meanwhile); the access token is refreshed 10 minutes after a profile id
 * appears (and after each refresh); analytics identify the user on log-in and reset when the token is cleared. When
 * the session ends on its own (the server refused to refresh, in this tab or another) the
 * user is told so and the login modal opens, coming back to the same page afterwards —
 * never a page waiting forever for a profile.
 */
export function useAuthBootstrap(): void {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const { accessToken, expired } = useSession();
  const { profile } = useProfile();
  const identified = useRef<string | null>(null);
  const lastToken = useRef(accessToken);

  const { refetch } = useQuery({
    queryKey: profileKeys.me(),
    queryFn: profileForSession,
    enabled: Boolean(accessToken),
    staleTime: Infinity,
  });

  useEffect(() => {
    const previous = lastToken.current;
    lastToken.current = accessToken;
    if (accessToken && previous && previous !== accessToken) {
      // A refreshed token (here or in another tab): the profile is loaded again.
      void refetch();
    } else if (!accessToken && previous) {
      identified.current = null;
      analytics().reset();
    }
  }, [accessToken, refetch]);

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
