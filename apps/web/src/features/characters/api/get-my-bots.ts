import { useQuery } from '@tanstack/react-query';
import type { BotMine } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { botKeys } from '../../../lib/query-keys';

export const getMyBots = () => request<{ results: BotMine[] }>('/api/bots/mine').then((list) => list.results);

/**
 * GET /api/bots/mine: the user's characters and personas with their state and chat counts
 * (My characters). Keyed under `botKeys.mine()`, so a create, edit, duplicate or delete
 * anywhere reloads it.
 */
export function useMyBots(viewer: string | null) {
  return useQuery({
    queryKey: [...botKeys.mine(), 'all', viewer ?? ''],
    queryFn: getMyBots,
    enabled: Boolean(viewer),
  });
}
