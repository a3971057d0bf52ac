import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { BotDetail } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { earlyBotKey, takeEarly } from '../../../lib/early-answers';
import { useProfile } from '../../../lib/profile';
import { useSession } from '../../../lib/session';

export const getBot = (slug: string) => request<BotDetail>(`/api/bot/${encodeURIComponent(slug)}`);

/**
 * One character with its gallery; private characters only for their author, so the answer is
 * kept per viewer. Signed in, it is asked once the profile says who the viewer is (not first
 * under a stand-in key, then again), and takes the answer a chat's opening started early
 * (`features/chat/api/opening.ts`, docs/chat.md "Long chats").
 */
export function useBot(slug: string) {
  const { isAuthorized } = useSession();
  const { profile } = useProfile();
  const client = useQueryClient();
  const queryKey = ['bots', 'detail', slug, profile?.id ?? (isAuthorized ? 'signed-in' : 'guest')];
  return useQuery({
    queryKey,
    // The early answer serves the first read only: a read again (after an edit) asks the server,
    // never an answer started before the edit (an early one left over is dropped).
    queryFn: () => {
      const early = takeEarly<BotDetail>(earlyBotKey(slug));
      return (client.getQueryData(queryKey) === undefined ? early : null) ?? getBot(slug);
    },
    enabled: !isAuthorized || Boolean(profile),
  });
}
