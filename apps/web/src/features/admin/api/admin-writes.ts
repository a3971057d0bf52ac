import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { contentKeys } from './content-keys';
import { request, type RequestOptions } from '../../../lib/api-client';
import { adminKeys, queryOf } from './keys';

/**
 * A write on a user (ban, unban, role, deletion, sessions, desires): `post` sends it, then every
 * console query is read again (`adminKeys.all`).
 */
export function useUserWrite<Body, Answer>(post: (body: Body) => Promise<Answer>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: post,
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

/**
 * A decision on a queue item (a report, a takedown request), POSTed to `path` with the body the
 * mutation is given: the item's own query gets the answer (when `item` is given), its queue and
 * the section's badge are read again.
 */
export function useDecision<Item, Body = void>(
  path: string,
  keys: { item?: QueryKey; queue: QueryKey; countPath: string },
  toBody: (input: Body) => RequestOptions['body'] = (input) => input as RequestOptions['body'],
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: Body) => request<Item>(path, { method: 'POST', body: toBody(input) }),
    onSuccess: (item: Item) => {
      if (keys.item) client.setQueryData(keys.item, item);
      void client.invalidateQueries({ queryKey: keys.queue });
      void client.invalidateQueries({ queryKey: adminKeys.count(keys.countPath) });
    },
  });
}

/** A page of a console list: the previous page stays on screen while the next one loads. */
export function useAdminPage<Page>(queryKey: QueryKey, read: () => Promise<Page>) {
  return useQuery({ queryKey, queryFn: read, placeholderData: keepPreviousData });
}

/** A console list read 25 rows a page with its filters (`c`, the cursor of the page). */
export const useFilteredPage = <Page>(path: string, key: QueryKey, filters: Record<string, string | undefined>) =>
  useAdminPage(key, () => request<Page>(path, { query: queryOf({ ...filters, size: 25 }) }));

/** A write on a blog post: the console's posts are read again after it. */
export function useBlogWrite<Input, Answer>(write: (input: Input) => Promise<Answer>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: () => void client.invalidateQueries({ queryKey: contentKeys.blog }),
  });
}
