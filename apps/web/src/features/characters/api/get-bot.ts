import { useQuery } from '@tanstack/react-query';
import type { BotDetail } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { useProfile } from '../../../lib/profile';
import { useSession } from '../../../lib/session';

export const getBot = (slug: string) => request<BotDetail>(`/api/bot/${encodeURIComponent(slug)}`);

/** One character with its gallery; private characters only for their author. */
export function useBot(slug: string) {
  const { isAuthorized } = useSession();
  const { profile } = useProfile();
  return useQuery({
    queryKey: ['bots', 'detail', slug, profile?.id ?? (isAuthorized ? 'signed-in' : 'guest')],
    queryFn: () => getBot(slug),
  });
}
