import { useQuery } from '@tanstack/react-query';
import { ApiRequestError, request } from '../../../lib/api-client';

/** The fields the onboarding shows (the Bot contract is owned by the characters module). */
export interface RecommendedBot {
  slug: string;
  name: string;
  avatar_url?: string | null;
  description?: string;
}

type BotList = { results: RecommendedBot[]; next_param: string | null } | RecommendedBot[];

/** GET /api/bots/available?size=6&tags=… ; null when the server has no characters API (404). */
export async function getRecommendedBots(tags: string[]): Promise<RecommendedBot[] | null> {
  const load = (query: Record<string, string>) =>
    request<BotList>('/api/bots/available', { query: { size: '6', ...query } });
  try {
    let list: BotList;
    try {
      list = await load(tags.length ? { tags: tags.join(',') } : {});
    } catch (error) {
      // Interest tags the catalogue does not filter on: recommend from everything.
      if (error instanceof ApiRequestError && error.status === 400 && tags.length) list = await load({});
      else throw error;
    }
    return Array.isArray(list) ? list : list.results;
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 404) return null;
    throw error;
  }
}

export function useRecommendedBots(tags: string[], enabled: boolean) {
  return useQuery({
    queryKey: ['onboarding', 'bots', tags],
    queryFn: () => getRecommendedBots(tags),
    enabled,
    retry: false,
  });
}
