import { useQuery } from '@tanstack/react-query';
import type { BotPopularList } from '@reverie/shared';
import { request } from '../../../lib/api-client';

export const getPopular = () => request<BotPopularList>('/api/bots/popular').then((list) => list.results);

/** GET /api/bots/popular: popular this week (the server ranks it every 10 minutes). */
export function usePopular(viewer: string) {
  return useQuery({ queryKey: ['bots', 'popular', viewer], queryFn: getPopular, staleTime: 5 * 60_000 });
}
