import { keepPreviousData, useInfiniteQuery, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { BOTS_FIRST_PAGE_SIZE, BOTS_NEXT_PAGE_SIZE, type Bot, type BotFilterTag, type BotList } from '@reverie/shared';
import { request } from '../../../lib/api-client';
import { useProfile } from '../../../lib/profile';
import { useSession } from '../../../lib/session';
import { takeInlineCatalogue } from './inline-catalogue';

export const getBots = (tags: BotFilterTag[], cursor: string | null, search = '') =>
  request<BotList>('/api/bots/available', {
    query: {
      size: cursor ? BOTS_NEXT_PAGE_SIZE : BOTS_FIRST_PAGE_SIZE,
      ...(cursor ? { c: cursor } : {}),
      ...(tags.length ? { tags: tags.join(',') } : {}),
      ...(search.trim() ? { q: search.trim() } : {}),
    },
  });

export const botsQueryRoot = ['bots', 'available'] as const;

/**
 * The catalogue page by page (spec §4): 30 first, then 15 through `next_param`, appended;
 * `search` (names and tags, searched by the server) narrows it. The viewer is part of the
 * key, so the list reloads when the profile id changes. A guest's unfiltered list starts from
 * the first page the server wrote into the page of `/` (`inline-catalogue.ts`), if any.
 */
export function useBots(tags: BotFilterTag[], search = '') {
  const { isAuthorized } = useSession();
  const { profile } = useProfile();
  const viewer = profile?.id ?? (isAuthorized ? 'signed-in' : 'guest');
  const unfiltered = tags.length === 0 && !search.trim();
  return useInfiniteQuery({
    queryKey: [...botsQueryRoot, viewer, [...tags].sort().join(','), search.trim().toLowerCase()],
    queryFn: ({ pageParam }) => getBots(tags, pageParam, search),
    placeholderData: keepPreviousData,
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_param,
    // A guest's first list starts from the page the server wrote into index.html of `/`.
    initialData: () => {
      const page = viewer === 'guest' && unfiltered ? takeInlineCatalogue() : undefined;
      return page ? { pages: [page], pageParams: [null] } : undefined;
    },
  });
}

/** Puts a newly created character at the top of every loaded catalogue list (spec §4). */
export function prependCreatedBot(client: QueryClient, bot: Bot): void {
  // Not into search results: the new character may not match the search.
  const unsearched = {
    queryKey: botsQueryRoot,
    predicate: (query: { queryKey: readonly unknown[] }) => !query.queryKey[4],
  };
  client.setQueriesData<InfiniteData<BotList, string | null>>(unsearched, (data) => {
    if (!data?.pages.length) return data;
    const [first, ...rest] = data.pages;
    const results = [bot, ...first!.results.filter((b) => b.id !== bot.id)];
    return { ...data, pages: [{ ...first!, results }, ...rest] };
  });
}
